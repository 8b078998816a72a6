import CHeif
import CJxl
import CRaw
import CTiff
import Glibc

/// The libraries of the formats gdk-pixbuf does not read (libheif, libjxl, LibRaw, libtiff),
/// loaded the first time a file needs one, never when a program starts: a decoder process
/// that decodes only JPEGs (most do) does not map, relocate or initialise them, nor what they
/// load (libde265, x265, aom, dav1d, highway, which times its clock as it loads, OpenMP).
/// The programs are not linked with them: each library's C module declares the functions
/// its wrapper calls as a table (`cheif_library`…), looked up here, all or none, the library
/// kept for the process's life. nil when the library is missing or lacks one of them: the
/// wrapper says it could not start, and nothing else is affected.
///
/// In a decoder process they load after its confinement (`DecoderConfinement`), as
/// gdk-pixbuf's loaders and GStreamer's plugins do: bubblewrap and Landlock leave /usr
/// readable, where they lie, and the seccomp filter allows opening files read-only and
/// mapping them.
enum FormatLibraries {
    static let heif = load(cheif_soname(), cheif_library_names(), as: cheif_library.self)
    static let jxl = load(cjxl_soname(), cjxl_library_names(), as: cjxl_library.self)
    static let raw = load(craw_soname(), craw_library_names(), as: craw_library.self)
    nonisolated(unsafe) static let tiff = load(ctiff_soname(), ctiff_library_names(), as: ctiff_library.self)

    /// The library `soname` opened, and its functions `names` (as many as `Table`, a C struct
    /// of function pointers, holds) looked up into a `Table`, in their order.
    static func load<Table>(_ soname: UnsafePointer<CChar>, _ names: UnsafePointer<UnsafePointer<CChar>?>, as _: Table.Type) -> Table? {
        guard let library = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        let slot = MemoryLayout<UnsafeRawPointer>.stride
        let count = MemoryLayout<Table>.size / slot
        precondition(count * slot == MemoryLayout<Table>.size, "a library's table holds only function pointers")
        let table = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Table>.size, alignment: MemoryLayout<Table>.alignment)
        defer { table.deallocate() }
        for index in 0..<count {
            guard let name = names[index], let function = dlsym(library, name) else {
                dlclose(library)
                return nil
            }
            table.storeBytes(of: function, toByteOffset: index * slot, as: UnsafeMutableRawPointer.self)
        }
        return table.load(as: Table.self)
    }
}
