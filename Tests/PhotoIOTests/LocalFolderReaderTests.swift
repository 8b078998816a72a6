import CGdkPixbuf
import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Everything one reading of a folder reported.
private struct Reading: Equatable {
    var photos: [Photo] = []
    var subfolders: [String] = []
    var skipped: [String] = []
    var end = ""

    static func of(_ path: String, withGIO: Bool) -> Reading {
        var reading = Reading()
        let folder = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(folder)) }
        let photo: (Photo) -> Void = { reading.photos.append($0) }
        let subfolder: (FolderListing.SubfolderEntry) -> Void = { entry in
            let identity = entry.identity.map { "\($0.device):\($0.inode)" } ?? "none"
            reading.subfolders.append("\(entry.uri) \(entry.name) \(entry.displayName) link=\(entry.isSymlink) \(identity)")
        }
        let skip: (SkippedEntry) -> Void = { reading.skipped.append("\($0.name): \($0.reason)") }
        let end = withGIO
            ? FolderListing.readWithGIO(folder: folder, cancellable: nil, photo: photo, subfolder: subfolder, skip: skip)
            : FolderListing.read(folder: folder, cancellable: nil, photo: photo, subfolder: subfolder, skip: skip)
        reading.end = "\(end)"
        reading.photos.sort { $0.id < $1.id }
        reading.subfolders.sort()
        reading.skipped.sort()
        return reading
    }
}

@Suite struct LocalFolderReaderTests {
    /// A folder holding every kind of entry a listing meets.
    private func makeFolder() throws -> String {
        let root = NSTemporaryDirectory() + "local-reader-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/sub folder", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/.hidden", withIntermediateDirectories: true)
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 60))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40))
        try jpeg.write(to: URL(fileURLWithPath: root + "/a.jpg"))
        try jpeg.write(to: URL(fileURLWithPath: root + "/Ünïcode ✓.JPG"))
        // Plain names longer than a string holds inline, other extensions (types guessed once
        // per extension), a name with spaces, one whose extension is too long to be cached.
        for name in ["photo-000123.jpg", "IMG_20240101_123456.JPG", "holiday photo 12.jpg", "b.PNG", "c.png", "d.jpeg",
                     "archive.tar.gz", "e.jpegjpeg", "IMG_0001.jpg"] {
            try (name.hasSuffix(".png") || name.hasSuffix(".PNG") ? png : jpeg).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        try png.write(to: URL(fileURLWithPath: root + "/no-extension"))
        try png.write(to: URL(fileURLWithPath: root + "/named.txt"))
        try Data().write(to: URL(fileURLWithPath: root + "/empty.png"))
        try Data("text".utf8).write(to: URL(fileURLWithPath: root + "/notes.md"))
        try manager.createSymbolicLink(atPath: root + "/link.jpg", withDestinationPath: "a.jpg")
        try manager.createSymbolicLink(atPath: root + "/broken.jpg", withDestinationPath: "nowhere.jpg")
        try manager.createSymbolicLink(atPath: root + "/to-sub", withDestinationPath: "sub folder")
        #expect(mkfifo(root + "/pipe.jpg", 0o600) == 0)
        // A name that is not UTF-8 (Latin-1 "é").
        let latin1 = root + "/caf\u{E9}.jpg"
        var bytes = Array((root + "/caf").utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let fd = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_CREAT | O_WRONLY, 0o600) }
        }
        #expect(fd >= 0, "could not make \(latin1)")
        _ = jpeg.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return root
    }

    @Test func readsALocalFolderAsGIOEnumeratesIt() throws {
        let root = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let local = Reading.of(root, withGIO: false)
        let gio = Reading.of(root, withGIO: true)
        #expect(local == gio)
        // And the reading is what a person expects: images by name, or by content when the
        // name says nothing (not "named.txt", a PNG named as text), the empty one, the link to
        // one; folders with their identity; the pipe and the broken link left out.
        #expect(local.photos.map(\.displayName).sorted() == [
            "a.jpg", "caf\u{FFFD}.jpg (invalid encoding)", "empty.png", "link.jpg", "no-extension", "Ünïcode ✓.JPG",
            "photo-000123.jpg", "IMG_20240101_123456.JPG", "holiday photo 12.jpg", "b.PNG", "c.png", "d.jpeg", "IMG_0001.jpg",
            "e.jpegjpeg",
        ].sorted())
        // Sorted by name as the same names from GIO, read once per extension or not.
        #expect(local.photos.map(\.nameKey) == gio.photos.map(\.nameKey))
        #expect(local.photos.map(\.contentType) == gio.photos.map(\.contentType))
        #expect(local.photos.first { $0.displayName == "photo-000123.jpg" }?.id == "file://" + root + "/photo-000123.jpg")
        #expect(local.subfolders.count == 3)
        #expect(local.skipped.count == 2)
        #expect(local.end == "finished")
    }

    @Test func aFolderThatCannotBeOpenedIsLeftToGIOsMessage() {
        let missing = NSTemporaryDirectory() + "no-such-folder-\(UUID().uuidString)"
        let reading = Reading.of(missing, withGIO: false)
        #expect(reading.end.hasPrefix("unopened"))
        #expect(reading.end.contains("does not exist"))
    }
}
