/* libtiff for the decoder processes' large TIFFs, read a strip or a tile at a time:
 * declarations, and prefixed wrappers for TIFFGetField, which is variadic. The programs do
 * not link libtiff: PhotoIO's `FormatLibraries` loads it the first time a TIFF needs it and
 * looks the functions below up into a `ctiff_library`, so that a process that reads no TIFF
 * never loads it. */
#ifndef GPHOTOBROWSE_CTIFF_H
#define GPHOTOBROWSE_CTIFF_H

#include <tiffio.h>
#include <tiffvers.h>
#include "../CLibraryTable/library_table.h"

#define CTIFF_FUNCTIONS(F) \
    F(TIFFFdOpen) F(TIFFClose) F(TIFFGetField) F(TIFFGetFieldDefaulted) F(TIFFSetErrorHandler) \
    F(TIFFSetWarningHandler) F(TIFFIsTiled) F(TIFFTileSize64) F(TIFFStripSize64) F(TIFFScanlineSize64) \
    F(TIFFNumberOfStrips) F(TIFFGetStrileByteCount) F(TIFFReadScanline) F(TIFFRGBAImageOK) \
    F(TIFFRGBAImageBegin) F(TIFFRGBAImageGet) F(TIFFRGBAImageEnd)

/* libtiff 4.5 made its soname 6 (4.x before it: 5). */
#if defined(TIFFLIB_MAJOR_VERSION) && (TIFFLIB_MAJOR_VERSION > 4 || TIFFLIB_MINOR_VERSION >= 5)
#define CTIFF_SONAME "libtiff.so.6"
#else
#define CTIFF_SONAME "libtiff.so.5"
#endif
GPB_LIBRARY_TABLE(ctiff, CTIFF_SONAME, CTIFF_FUNCTIONS)

static inline int gpb_tiff_u32(struct ctiff_library tiffs, TIFF *tiff, uint32_t tag, uint32_t *value) {
    return tiffs.TIFFGetField(tiff, tag, value);
}
static inline int gpb_tiff_u16(struct ctiff_library tiffs, TIFF *tiff, uint32_t tag, uint16_t *value) {
    return tiffs.TIFFGetField(tiff, tag, value);
}
static inline int gpb_tiff_u16_defaulted(struct ctiff_library tiffs, TIFF *tiff, uint32_t tag, uint16_t *value) {
    return tiffs.TIFFGetFieldDefaulted(tiff, tag, value);
}

/* The embedded ICC profile, or 0; the bytes are libtiff's, valid until the file closes. */
static inline int gpb_tiff_icc(struct ctiff_library tiffs, TIFF *tiff, uint32_t *length, void **icc) {
    return tiffs.TIFFGetField(tiff, TIFFTAG_ICCPROFILE, length, icc);
}

/* Errors and warnings are the file's: told by return values, never printed on stderr. */
static inline void gpb_tiff_silence(struct ctiff_library tiffs) {
    tiffs.TIFFSetErrorHandler(NULL);
    tiffs.TIFFSetWarningHandler(NULL);
}

#endif
