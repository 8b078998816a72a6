/* libpng for the decoder processes' large PNGs, read a row at a time: declarations, and
 * one-line wrappers that catch libpng's errors (it reports them by longjmp, which Swift
 * cannot catch): each wrapper sets the jump point, makes its calls, and returns -1 when
 * libpng failed (the message is in the context's `message`). */
#ifndef GPHOTOBROWSE_CPNG_H
#define GPHOTOBROWSE_CPNG_H

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <png.h>

typedef struct {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    char message[200];
} gpb_png;

static void gpb_png_error(png_structp png, png_const_charp text) {
    gpb_png *context = (gpb_png *)png_get_error_ptr(png);
    snprintf(context->message, sizeof context->message, "%s", text);
    longjmp(context->jump, 1);
}

/* Warnings (a damaged ancillary chunk libpng carries on past) are not printed on stderr. */
static void gpb_png_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

/* Reads the header from `file` and sets the transforms that give 8-bit RGB or RGBA rows;
 * -1 on failure. */
static inline int gpb_png_open(gpb_png *context, FILE *file, png_uint_32 max_edge) {
    memset(context, 0, sizeof *context);
    context->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context, gpb_png_error, gpb_png_warning);
    if (!context->png) return -1;
    if (setjmp(context->jump)) return -1;
    context->info = png_create_info_struct(context->png);
    if (!context->info) return -1;
    png_set_user_limits(context->png, max_edge, max_edge);
    png_init_io(context->png, file);
    png_read_info(context->png, context->info);
    png_set_expand(context->png);
    png_set_scale_16(context->png);
    png_set_gray_to_rgb(context->png);
    png_read_update_info(context->png, context->info);
    return 0;
}

static inline png_uint_32 gpb_png_width(gpb_png *context) { return png_get_image_width(context->png, context->info); }
static inline png_uint_32 gpb_png_height(gpb_png *context) { return png_get_image_height(context->png, context->info); }
static inline int gpb_png_channels(gpb_png *context) { return png_get_channels(context->png, context->info); }
static inline int gpb_png_interlaced(gpb_png *context) {
    return png_get_interlace_type(context->png, context->info) != PNG_INTERLACE_NONE;
}

/* The next row into `row` (width × channels bytes); -1 on failure. */
static inline int gpb_png_read_row(gpb_png *context, png_bytep row) {
    if (setjmp(context->jump)) return -1;
    png_read_row(context->png, row, NULL);
    return 0;
}

/* The embedded ICC profile (iCCP), or 0; the bytes are libpng's, valid until destroy. */
static inline int gpb_png_icc(gpb_png *context, png_bytep *icc, png_uint_32 *length) {
    png_charp name = NULL;
    int compression = 0;
    if (setjmp(context->jump)) return 0;
    return png_get_iCCP(context->png, context->info, &name, &compression, icc, length) == PNG_INFO_iCCP ? 1 : 0;
}

static inline void gpb_png_destroy(gpb_png *context) {
    if (context->png) png_destroy_read_struct(&context->png, context->info ? &context->info : NULL, NULL);
}

#endif
