/* libjxl's decoder API (JPEG XL) for the decoder processes: declarations only. The programs
 * do not link libjxl: PhotoIO's `FormatLibraries` loads the library these headers are of
 * (its soname changes with each 0.x version) the first time a JPEG XL needs it and looks the
 * functions below up into a `cjxl_library`, so that a process that reads no JPEG XL never
 * loads it (nor times its clock, as libjxl's highway does when it loads). */
#ifndef GPHOTOBROWSE_CJXL_H
#define GPHOTOBROWSE_CJXL_H

#include <jxl/decode.h>
#include <jxl/version.h>

#define CJXL_FUNCTIONS(F) \
    F(JxlDecoderCreate) F(JxlDecoderDestroy) F(JxlDecoderSubscribeEvents) F(JxlDecoderSetInput) \
    F(JxlDecoderCloseInput) F(JxlDecoderProcessInput) F(JxlDecoderGetBasicInfo) \
    F(JxlDecoderSetPreferredColorProfile) F(JxlDecoderGetColorAsEncodedProfile) \
    F(JxlDecoderGetICCProfileSize) F(JxlDecoderGetColorAsICCProfile) F(JxlDecoderImageOutBufferSize) \
    F(JxlDecoderSetImageOutBuffer)

/* The functions, in the order of their names. */
#define CJXL_FIELD(name) __typeof__(name) *_Nonnull name;
struct cjxl_library { CJXL_FUNCTIONS(CJXL_FIELD) };
#define CJXL_NAME(name) #name,
static inline const char *const *cjxl_library_names(void) {
    static const char *const names[] = { CJXL_FUNCTIONS(CJXL_NAME) };
    return names;
}
#define CJXL_TEXT(x) #x
#define CJXL_SONAME(major, minor) (major == 0 ? "libjxl.so.0." CJXL_TEXT(minor) : "libjxl.so." CJXL_TEXT(major))
static inline const char *cjxl_soname(void) { return CJXL_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION); }

#endif
