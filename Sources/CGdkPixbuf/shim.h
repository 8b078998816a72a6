/* gdk-pixbuf and GIO for PhotoIO: declarations only. */
#ifndef GPHOTOBROWSE_CGDKPIXBUF_H
#define GPHOTOBROWSE_CGDKPIXBUF_H

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
/* GSettings backends by name (memory, key file): the settings' tests keep theirs in a
   temporary folder. */
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

/* G_CALLBACK is a macro: Swift passes a @convention(c) function through this cast. */
static inline GCallback cgdkpixbuf_callback(void *function) { return (GCallback)function; }

#endif
