/* libexif for PhotoIO: declarations only. */
#ifndef GPHOTOBROWSE_CEXIF_H
#define GPHOTOBROWSE_CEXIF_H

#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>

#endif
