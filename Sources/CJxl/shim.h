/* libjxl's decoder API (JPEG XL) for the decoder processes: declarations only. The programs
 * do not link libjxl: PhotoIO's `FormatLibraries` loads the library these headers are of
 * (its soname changes with each 0.x version) the first time a JPEG XL needs it and looks the
 * functions below up into a `cjxl_library`, so that a process that reads no JPEG XL never
 * loads it (nor times its clock, as libjxl's highway does when it loads). */
#ifndef GPHOTOBROWSE_CJXL_H
#define GPHOTOBROWSE_CJXL_H

#include <jxl/decode.h>
#include <jxl/version.h>
#include "../CLibraryTable/library_table.h"

#define CJXL_FUNCTIONS(F) \
    F(JxlDecoderCreate) F(JxlDecoderDestroy) F(JxlDecoderSubscribeEvents) F(JxlDecoderSetInput) \
    F(JxlDecoderCloseInput) F(JxlDecoderProcessInput) F(JxlDecoderGetBasicInfo) \
    F(JxlDecoderSetPreferredColorProfile) F(JxlDecoderGetColorAsEncodedProfile) \
    F(JxlDecoderGetICCProfileSize) F(JxlDecoderGetColorAsICCProfile) F(JxlDecoderImageOutBufferSize) \
    F(JxlDecoderSetImageOutBuffer)

/* 0.x versions' sonames name the minor version. */
#define CJXL_SONAME (JPEGXL_MAJOR_VERSION == 0 ? "libjxl.so.0." GPB_LIBRARY_VERSION(JPEGXL_MINOR_VERSION) \
                                              : "libjxl.so." GPB_LIBRARY_VERSION(JPEGXL_MAJOR_VERSION))
GPB_LIBRARY_TABLE(cjxl, CJXL_SONAME, CJXL_FUNCTIONS)

#endif
