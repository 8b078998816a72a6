/* libheif (HEIC, AVIF) for the decoder processes: declarations only. The programs do not
 * link libheif: PhotoIO's `FormatLibraries` loads it the first time a HEIF needs it and
 * looks the functions below up into a `cheif_library`, so that a process that reads no HEIF
 * never loads it. */
#ifndef GPHOTOBROWSE_CHEIF_H
#define GPHOTOBROWSE_CHEIF_H

#include <libheif/heif.h>
#include "../CLibraryTable/library_table.h"

#define CHEIF_FUNCTIONS(F) \
    F(heif_context_alloc) F(heif_context_free) F(heif_context_read_from_memory_without_copy) \
    F(heif_context_get_primary_image_handle) F(heif_image_handle_release) F(heif_image_handle_get_width) \
    F(heif_image_handle_get_height) F(heif_image_handle_has_alpha_channel) \
    F(heif_image_handle_get_number_of_thumbnails) F(heif_image_handle_get_list_of_thumbnail_IDs) \
    F(heif_image_handle_get_thumbnail) F(heif_image_handle_get_raw_color_profile_size) \
    F(heif_image_handle_get_raw_color_profile) F(heif_image_handle_get_nclx_color_profile) \
    F(heif_nclx_color_profile_free) F(heif_image_handle_get_list_of_metadata_block_IDs) \
    F(heif_image_handle_get_metadata_size) F(heif_image_handle_get_metadata) F(heif_decode_image) \
    F(heif_image_release) F(heif_image_get_width) F(heif_image_get_height) F(heif_image_get_plane_readonly)

GPB_LIBRARY_TABLE(cheif, "libheif.so.1", CHEIF_FUNCTIONS)

#endif
