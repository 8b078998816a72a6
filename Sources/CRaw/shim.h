/* LibRaw's C API for the decoder processes: declarations only. The programs do not link
 * LibRaw: PhotoIO's `FormatLibraries` loads the library these headers are of the first time
 * a RAW file needs it and looks the functions below up into a `craw_library`, so that a
 * process that reads no RAW file never loads it. */
#ifndef GPHOTOBROWSE_CRAW_H
#define GPHOTOBROWSE_CRAW_H

#include <libraw/libraw.h>
#include "../CLibraryTable/library_table.h"

#define CRAW_FUNCTIONS(F) \
    F(libraw_init) F(libraw_close) F(libraw_set_progress_handler) F(libraw_open_buffer) F(libraw_strerror) \
    F(libraw_unpack_thumb) F(libraw_unpack) F(libraw_dcraw_process) F(libraw_dcraw_make_mem_thumb) \
    F(libraw_dcraw_make_mem_image) F(libraw_dcraw_clear_mem)

GPB_LIBRARY_TABLE(craw, "libraw_r.so." GPB_LIBRARY_VERSION(LIBRAW_SHLIB_CURRENT), CRAW_FUNCTIONS)

#endif
