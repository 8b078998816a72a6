import CGtk

/// One reference to a GObject, held by a Swift object and dropped when it goes: for GObjects
/// a Swift class keeps using beyond the call that made them (actions it sets the state of,
/// textures it shows), so that their lifetime is the Swift owner's and is written once.
final class OwnedObject<Pointer: GObjectPointer> {
    let pointer: Pointer

    /// Takes over a reference the caller owns (a `_new` result, a transfer-full return),
    /// counted in `LiveObjects` until the object is finalized.
    @MainActor
    init(taking pointer: Pointer) {
        self.pointer = pointer
        LiveObjects.track(pointer)
    }

    /// Adds a reference of its own (for a transfer-none result).
    init(sharing pointer: Pointer) {
        g_object_ref(pointer.raw)
        self.pointer = pointer
    }

    deinit { g_object_unref(pointer.raw) }
}
