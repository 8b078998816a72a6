/* libjpeg-turbo for the decoder processes' region decodes: declarations, and one-line
 * wrappers that catch libjpeg's errors (it reports them by longjmp, which Swift cannot
 * catch): each wrapper sets the jump point, makes its one call, and returns -1 when libjpeg
 * failed (the message is in the context's `message`). */
#ifndef GPHOTOBROWSE_CJPEG_H
#define GPHOTOBROWSE_CJPEG_H

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} gpb_jpeg;

static void gpb_jpeg_error_exit(j_common_ptr common) {
    gpb_jpeg *context = (gpb_jpeg *)common->client_data;
    common->err->format_message(common, context->message);
    longjmp(context->jump, 1);
}

/* Warnings (a damaged file libjpeg carries on through) are not printed on stderr. */
static void gpb_jpeg_output_message(j_common_ptr common) { (void)common; }

/* Creates the decompressor reading `file`; -1 on failure. */
static inline int gpb_jpeg_create(gpb_jpeg *context, FILE *file) {
    memset(context, 0, sizeof *context);
    context->info.err = jpeg_std_error(&context->error);
    context->error.error_exit = gpb_jpeg_error_exit;
    context->error.output_message = gpb_jpeg_output_message;
    context->info.client_data = context;
    if (setjmp(context->jump)) return -1;
    jpeg_create_decompress(&context->info);
    jpeg_stdio_src(&context->info, file);
    jpeg_save_markers(&context->info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&context->info, JPEG_APP0 + 2, 0xFFFF);
    return 0;
}

static inline int gpb_jpeg_read_header(gpb_jpeg *context) {
    if (setjmp(context->jump)) return -1;
    return jpeg_read_header(&context->info, TRUE) == JPEG_HEADER_OK ? 0 : -1;
}

static inline int gpb_jpeg_start(gpb_jpeg *context) {
    if (setjmp(context->jump)) return -1;
    return jpeg_start_decompress(&context->info) ? 0 : -1;
}

static inline int gpb_jpeg_crop(gpb_jpeg *context, JDIMENSION *x, JDIMENSION *width) {
    if (setjmp(context->jump)) return -1;
    jpeg_crop_scanline(&context->info, x, width);
    return 0;
}

static inline long gpb_jpeg_skip(gpb_jpeg *context, JDIMENSION rows) {
    if (setjmp(context->jump)) return -1;
    return (long)jpeg_skip_scanlines(&context->info, rows);
}

static inline long gpb_jpeg_read_rows(gpb_jpeg *context, JSAMPARRAY rows, JDIMENSION count) {
    if (setjmp(context->jump)) return -1;
    return (long)jpeg_read_scanlines(&context->info, rows, count);
}

/* The ICC profile in the APP2 markers saved, or 0 (the caller frees *icc with free()). */
static inline int gpb_jpeg_icc(gpb_jpeg *context, JOCTET **icc, unsigned int *length) {
    if (setjmp(context->jump)) return 0;
    return jpeg_read_icc_profile(&context->info, icc, length) ? 1 : 0;
}

static inline void gpb_jpeg_destroy(gpb_jpeg *context) {
    jpeg_destroy_decompress(&context->info);
}

#endif
