import CGtk
import PhotoCore

/// `trace shown TYPE [NAME] MS` whenever a popover or a window (a dialog, a menu) is mapped,
/// and `trace hidden TYPE [NAME] MS` when it is unmapped: what a person sees open, which the
/// tests wait for before typing into it or after closing it. Emission hooks on GtkWidget's
/// map and unmap, installed once when tracing is on.
enum ShownTrace {
    @MainActor static func install() {
        guard Trace.isEnabled else { return }
        let shown: GSignalEmissionHook = { _, count, parameters, _ in
            ShownTrace.trace("shown", count, parameters)
        }
        let hidden: GSignalEmissionHook = { _, count, parameters, _ in
            ShownTrace.trace("hidden", count, parameters)
        }
        // The class is made before its signals can be looked up (kept: GTK keeps it anyway).
        g_type_class_ref(gtk_widget_get_type())
        g_signal_add_emission_hook(g_signal_lookup("map", gtk_widget_get_type()), 0, shown, nil, nil)
        g_signal_add_emission_hook(g_signal_lookup("unmap", gtk_widget_get_type()), 0, hidden, nil, nil)
    }

    /// Traces the emitting widget when it is a popover or a window; keeps the hook (TRUE).
    private static func trace(_ what: String, _ count: guint, _ parameters: UnsafePointer<GValue>?) -> gboolean {
        guard count > 0, let parameters, let object = g_value_get_object(parameters) else { return 1 }
        let instance = object.assumingMemoryBound(to: GTypeInstance.self)
        guard g_type_check_instance_is_a(instance, gtk_popover_get_type()) != 0
                || g_type_check_instance_is_a(instance, gtk_window_get_type()) != 0 else { return 1 }
        let type = String(cString: g_type_name_from_instance(instance))
        let name = gtk_widget_get_name(object.assumingMemoryBound(to: GtkWidget.self)).map { String(cString: $0) } ?? type
        Trace.milestone(what, text: name == type ? type : "\(type) \(name)")
        return 1
    }
}
