/*
 * GTK 4 and libadwaita for gphotobrowse: the headers, and C macros re-exported as prefixed inline
 * functions because Swift does not import function-like macros. No logic lives here.
 */
#ifndef GPHOTOBROWSE_CGTK_H
#define GPHOTOBROWSE_CGTK_H

#include <adwaita.h> /* includes <gtk/gtk.h> */
#include <glib-unix.h>
#include <gio/gunixfdlist.h> /* a file handed to the desktop portal (Set as Background) */
#include <malloc.h> /* malloc_trim: give memory freed by big jobs back to the system */

/* G_CALLBACK: lets Swift hand a @convention(c) function to g_signal_connect_data. */
static inline GCallback cgtk_callback(void *function) { return (GCallback)function; }

/* G_VALUE_HOLDS: checks a GValue's type before reading it (drop targets). */
static inline gboolean cgtk_value_holds(const GValue *value, GType type) { return G_VALUE_HOLDS(value, type); }

/* G_TYPE_STRING, G_TYPE_INT: fundamental type ids, macros in C. */
static inline GType cgtk_type_string(void) { return G_TYPE_STRING; }
static inline GType cgtk_type_int(void) { return G_TYPE_INT; }

/* G_OBJECT_TYPE_NAME: an instance's type name, a macro in C (live-object counts). */
static inline const char *cgtk_object_type_name(gpointer object) { return G_OBJECT_TYPE_NAME(object); }

/* GTK_INVALID_LIST_POSITION: the "no item" position of list models. */
static inline guint cgtk_invalid_list_position(void) { return GTK_INVALID_LIST_POSITION; }

/* g_application_command_line_print and _printerr are variadic: the text as it is. */
static inline void cgtk_command_line_print(GApplicationCommandLine *line, const char *text) {
    g_application_command_line_print(line, "%s", text);
}
static inline void cgtk_command_line_printerr(GApplicationCommandLine *line, const char *text) {
    g_application_command_line_printerr(line, "%s", text);
}

/* gtk_accessible_update_property and _state are variadic: one property or state at a time. */
static inline void cgtk_accessible_set_label(GtkAccessible *accessible, const char *label) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void cgtk_accessible_set_description(GtkAccessible *accessible, const char *description) {
    gtk_accessible_update_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}
/* G_TYPE_CHECK_INSTANCE_TYPE: whether a widget is of a type (the parts of a composite widget). */
static inline gboolean cgtk_widget_is_a(GtkWidget *widget, GType type) { return G_TYPE_CHECK_INSTANCE_TYPE(widget, type); }
static inline void cgtk_accessible_set_selected(GtkAccessible *accessible, gboolean selected) {
    gtk_accessible_update_state(accessible, GTK_ACCESSIBLE_STATE_SELECTED, selected, -1);
}

/* g_object_get is variadic: the double-click time GTK's settings hold, in milliseconds. */
static inline int cgtk_double_click_time(void) {
    int time = 400;
    g_object_get(gtk_settings_get_default(), "gtk-double-click-time", &time, NULL);
    return time;
}

#endif
