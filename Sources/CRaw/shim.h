/* LibRaw's C API for the decoder processes: declarations only. */
#ifndef GPHOTOBROWSE_CRAW_H
#define GPHOTOBROWSE_CRAW_H

#include <libraw/libraw.h>

#endif
