/* GStreamer and its appsink, for videos' frames and metadata in the decoder processes:
 * declarations, and wrappers for the calls and macros Swift cannot make. No logic. */
#ifndef GPHOTOBROWSE_CGST_H
#define GPHOTOBROWSE_CGST_H

#include <gst/gst.h>
#include <gst/app/gstappsink.h>

/* GST_MESSAGE_TYPE, GST_CLOCK_TIME_NONE and GST_SECOND are macros. */
static inline GstMessageType cgst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static const GstClockTime cgst_CLOCK_TIME_NONE = GST_CLOCK_TIME_NONE;
static const GstClockTime cgst_SECOND = GST_SECOND;
static const GstClockTime cgst_MSECOND = GST_MSECOND;
/* g_object_set is variadic. */
static inline void cgst_set_int(gpointer object, const char *name, int value) { g_object_set(object, name, value, NULL); }
static inline void cgst_set_bool(gpointer object, const char *name, gboolean value) { g_object_set(object, name, value, NULL); }
static inline void cgst_set_caps(gpointer object, const char *name, GstCaps *value) { g_object_set(object, name, value, NULL); }

#endif
