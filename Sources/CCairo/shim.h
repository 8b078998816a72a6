/* cairo, and Pango through pangocairo, for the drawing board's renderer (PhotoIO's Drawing/):
 * declarations only. */
#ifndef GPHOTOBROWSE_CCAIRO_H
#define GPHOTOBROWSE_CCAIRO_H

#include <cairo.h>
#include <pango/pangocairo.h>

#endif
