/* libjxl's decoder API (JPEG XL) for the decoder processes: declarations only. */
#ifndef GPHOTOBROWSE_CJXL_H
#define GPHOTOBROWSE_CJXL_H

#include <jxl/decode.h>

#endif
