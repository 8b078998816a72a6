import Bridge
import CGtk
import PhotoCore

/// An owned reference to a GdkTexture, dropped when the Swift object goes.
final class Texture {
    let pointer: OpaquePointer
    /// Takes over one reference.
    @MainActor
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
        LiveObjects.track(pointer)
    }
    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}

extension DecodedImage {
    /// A GdkTexture over these pixels, without copying them: the GBytes keeps the
    /// PixelBuffer alive until GTK drops the texture.
    @MainActor
    func makeTexture() -> Texture {
        let bytes = g_bytes_new_with_free_func(pixels.bytes, gsize(pixels.count), { CallbackBox.release($0) },
                                               CallbackBox.retain(pixels))
        defer { g_bytes_unref(bytes) }
        let format = hasAlpha ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8
        return Texture(owning: gdk_memory_texture_new(Int32(size.width), Int32(size.height), format, bytes, gsize(stride)))
    }
}
