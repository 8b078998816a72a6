/* Little CMS 2 for the decoder processes: declarations, and its pixel-format macros as constants. */
#ifndef GPHOTOBROWSE_CLCMS_H
#define GPHOTOBROWSE_CLCMS_H

#include <lcms2.h>

static const cmsUInt32Number gpb_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number gpb_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number gpb_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number gpb_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;

#endif
