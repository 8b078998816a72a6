/* libtiff for the decoder processes' large TIFFs, read a strip or a tile at a time:
 * declarations, and prefixed wrappers for TIFFGetField, which is variadic. */
#ifndef GPHOTOBROWSE_CTIFF_H
#define GPHOTOBROWSE_CTIFF_H

#include <tiffio.h>

static inline int gpb_tiff_u32(TIFF *tiff, uint32_t tag, uint32_t *value) { return TIFFGetField(tiff, tag, value); }
static inline int gpb_tiff_u16(TIFF *tiff, uint32_t tag, uint16_t *value) { return TIFFGetField(tiff, tag, value); }
static inline int gpb_tiff_u16_defaulted(TIFF *tiff, uint32_t tag, uint16_t *value) { return TIFFGetFieldDefaulted(tiff, tag, value); }

/* The embedded ICC profile, or 0; the bytes are libtiff's, valid until the file closes. */
static inline int gpb_tiff_icc(TIFF *tiff, uint32_t *length, void **icc) { return TIFFGetField(tiff, TIFFTAG_ICCPROFILE, length, icc); }

/* Errors and warnings are the file's: told by return values, never printed on stderr. */
static inline void gpb_tiff_silence(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

#endif
