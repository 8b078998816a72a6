import CGdkPixbuf
import Foundation

// Photos the benchmarks make for themselves.

/// Writes a JPEG of one colour (`rgba`, as gdk_pixbuf_fill takes it) at `path`; false when
/// it cannot be written.
func writeSolidJPEG(_ path: String, rgba: UInt32, width: Int32 = 640, height: Int32 = 480) -> Bool {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    gdk_pixbuf_fill(pixbuf, rgba)
    return gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0
}

/// Sets a file's access and modification times to `seconds` since 1970; false when it cannot.
func setModified(_ path: String, seconds: Int) -> Bool {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    return utimensat(AT_FDCWD, path, &times, 0) == 0
}
