/* libheif (HEIC, AVIF) for the decoder processes: declarations only. */
#ifndef GPHOTOBROWSE_CHEIF_H
#define GPHOTOBROWSE_CHEIF_H

#include <libheif/heif.h>

#endif
