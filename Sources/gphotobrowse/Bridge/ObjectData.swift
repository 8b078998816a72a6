import Bridge
import CGtk

/// Swift objects carried by GObjects (`g_object_set_data_full`): the GObject holds a strong
/// reference, released when the GObject is finalized or the data replaced.
@MainActor
enum ObjectData {
    static func attach(_ value: AnyObject, to object: some GObjectPointer, key: String) {
        g_object_set_data_full(object.object, key, CallbackBox.retain(value)) { CallbackBox.release($0) }
    }

    /// The object attached under `key`, if it is a `T`.
    static func attached<T: AnyObject>(to object: some GObjectPointer, key: String, as type: T.Type = T.self) -> T? {
        guard let data = g_object_get_data(object.object, key) else { return nil }
        return CallbackBox.value(data, as: AnyObject.self) as? T
    }
}
