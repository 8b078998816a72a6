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

/// A weak reference to a GObject (GWeakRef): the object while something else keeps it
/// alive, nil once it is finalized. For objects GTK owns that a Swift object wants to reach
/// while they last (a toast it may withdraw) without deciding how long they last.
final class WeakObject<Pointer: GObjectPointer> {
    private let reference = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)

    init(_ pointer: Pointer) {
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, pointer.raw)
    }

    deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }

    /// Runs `body` with the object if it is still alive (holding a reference meanwhile).
    func withObject(_ body: (Pointer) -> Void) {
        guard let object = g_weak_ref_get(reference) else { return }
        defer { g_object_unref(object) }
        body(Pointer(raw: object))
    }
}
