import Foundation
@testable import PhotoIO
import Testing

/// The folders a decoder's sandbox binds besides /usr: those of the libraries the browser
/// has mapped, read from its `/proc/self/maps`.
struct DecoderConfinementTests {
    @Test func librariesOutsideUsrGiveTheirFoldersOnce() {
        let maps = """
            55d0c0a00000-55d0c0a10000 r--p 00000000 08:01 1 /home/ann/bin/gphotobrowse
            7f0000000000-7f0000001000 r--p 00000000 08:01 2 /opt/swift/usr/lib/swift/linux/libswiftCore.so
            7f0000001000-7f0000002000 r-xp 00001000 08:01 2 /opt/swift/usr/lib/swift/linux/libswiftCore.so
            7f0000002000-7f0000003000 r--p 00000000 08:01 3 /usr/lib/x86_64-linux-gnu/libgtk-4.so.1.800.3
            7f0000003000-7f0000004000 r--p 00000000 08:01 4 /opt/swift/usr/lib/swift/linux/libFoundation.so
            7f0000004000-7f0000005000 r--p 00000000 08:01 5 /home/ann/lib/libodd.so.6
            7f0000005000-7f0000006000 r--p 00000000 08:01 6 /home/ann/.cache/fontconfig/abc-le64.cache-8
            7f0000006000-7f0000007000 r--p 00000000 08:01 7 /tmp/gone/libold.so (deleted)
            7f0000007000-7f0000008000 rw-p 00000000 00:00 0 [heap]
            7f0000008000-7f0000009000 r--p 00000000 08:01 8 /libroot.so
            7f0000009000-7f000000a000 r--p 00000000 08:01 9 /home/ann/lib/libsonar.sonic
            7f000000a000-7f000000b000 r--p 00000000 08:01 10 /home/ann/lib/libodd.so.6

            """
        #expect(DecoderConfinement.libraryFolders(inMaps: Array(maps.utf8)) == ["/opt/swift/usr/lib/swift/linux", "/home/ann/lib"])
    }

    @Test func aFolderNotInUTF8IsKept() {
        var maps = Array("7f00-7f01 r--p 00000000 08:01 2 /srv/".utf8) + [0xE9] + Array("t\u{E9}/libx.so\n".utf8)
        maps += Array("7f01-7f02 r--p 00000000 08:01 3 /srv/lib/liby.so.1".utf8)  // no newline at the end
        #expect(DecoderConfinement.libraryFolders(inMaps: maps) == ["/srv/\u{FFFD}t\u{E9}", "/srv/lib"])
    }

    @Test func thisProcessesSwiftRuntimeFolderIsFound() throws {
        // The tests link the Swift runtime like the browser does; where the toolchain lives
        // outside /usr, its folder must be bound into the decoder's sandbox.
        // Read to its end: a /proc file says it is empty.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: try #require(try file.readToEnd()), as: UTF8.self)
        let line = try #require(maps.split(separator: "\n").first { $0.hasSuffix("/libswiftCore.so") })
        let runtime = String(line[try #require(line.firstIndex(of: "/"))...])
        let folder = (runtime as NSString).deletingLastPathComponent
        let found = DecoderConfinement.loadedLibraryFolders()
        if folder.hasPrefix("/usr/") {
            #expect(!found.contains(folder))
        } else {
            #expect(found.contains(folder))
        }
    }
}
