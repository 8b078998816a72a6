import CGdkPixbuf
import Foundation
import PhotoCore
import Testing
@testable import PhotoIO

@Suite("Thumbnail store")
struct ThumbnailStoreTests {
    let home = ThumbnailCacheHome()
    let uri = "file:///photos/IMG_0001.JPG"

    @Test(arguments: [(false, 0), (true, 0), (false, 5), (true, 12)])
    func savedThenLoadedGivesTheSamePixels(hasAlpha: Bool, padding: Int) throws {
        let image = patternImage(width: 256, height: 171, hasAlpha: hasAlpha, padding: padding,
                                 sourceSize: PixelSize(width: 4000, height: 2667))
        try home.store.save(image: image, uri: uri, modified: 1_700_000_000, fileSize: 123_456, size: .large)

        let loaded = try #require(home.store.load(uri: uri, modified: 1_700_000_000, fileSize: 123_456, size: .large))
        #expect(loaded.size == image.size)
        #expect(loaded.hasAlpha == hasAlpha)
        #expect(packedPixels(loaded) == packedPixels(image))
        #expect(loaded.sourceSize == PixelSize(width: 4000, height: 2667))
        #expect(loaded.format == "jpeg")
    }

    @Test func writesTheStandardKeysWhereOthersLook() throws {
        let image = patternImage(width: 200, height: 150, sourceSize: PixelSize(width: 1600, height: 1200))
        try home.store.save(image: image, uri: uri, modified: 1_700_000_000, fileSize: 98_765, size: .large)

        let path = home.path + "/thumbnails/large/" + MD5.hex(uri) + ".png"
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(pngText(path, "Thumb::URI") == uri)
        #expect(pngText(path, "Thumb::MTime") == "1700000000")
        #expect(pngText(path, "Thumb::Size") == "98765")
        #expect(pngText(path, "Thumb::Image::Width") == "1600")
        #expect(pngText(path, "Thumb::Image::Height") == "1200")
        #expect(pngText(path, "Software") == "gphotobrowse 0.1.0")
    }

    @Test func foldersAre0700FilesAre0600AndNoTemporaryFileIsLeft() throws {
        let image = patternImage(width: 64, height: 48)
        try home.store.save(image: image, uri: uri, modified: 1, fileSize: 10, size: .normal)
        try home.store.save(image: image, uri: uri, modified: 2, fileSize: 10, size: .normal)  // replaces it
        try home.store.recordFailure(uri: "file:///photos/broken.jpg", modified: 3)

        let name = MD5.hex(uri) + ".png"
        let failed = MD5.hex("file:///photos/broken.jpg") + ".png"
        #expect(home.contents() == [
            "thumbnails", "thumbnails/fail", "thumbnails/fail/gphotobrowse-0.1.0",
            "thumbnails/fail/gphotobrowse-0.1.0/" + failed, "thumbnails/normal", "thumbnails/normal/" + name,
        ])
        for folder in ["", "/thumbnails", "/thumbnails/normal", "/thumbnails/fail", "/thumbnails/fail/gphotobrowse-0.1.0"] {
            #expect(permissions(home.path + folder) == 0o700, "\(folder)")
        }
        #expect(permissions(home.path + "/thumbnails/normal/" + name) == 0o600)
        #expect(permissions(home.path + "/thumbnails/fail/gphotobrowse-0.1.0/" + failed) == 0o600)
        #expect(home.store.load(uri: uri, modified: 2, size: .normal) != nil)
        #expect(home.store.load(uri: uri, modified: 1, size: .normal) == nil)
    }

    @Test func existingFoldersKeepTheirPermissions() throws {
        try FileManager.default.createDirectory(atPath: home.path + "/thumbnails", withIntermediateDirectories: true)
        chmod(home.path + "/thumbnails", 0o755)
        try home.store.save(image: patternImage(width: 8, height: 8), uri: uri, modified: 1, fileSize: 1, size: .normal)
        #expect(permissions(home.path + "/thumbnails") == 0o755)
        #expect(permissions(home.path + "/thumbnails/normal") == 0o700)
    }

    @Test func aStaleThumbnailIsNotLoaded() throws {
        try home.store.save(image: patternImage(width: 32, height: 32), uri: uri, modified: 100, fileSize: 500, size: .normal)
        #expect(home.store.load(uri: uri, modified: 100, fileSize: 500, size: .normal) != nil)
        #expect(home.store.load(uri: uri, modified: 101, fileSize: 500, size: .normal) == nil)
        #expect(home.store.load(uri: uri, modified: 100, fileSize: 501, size: .normal) == nil)
        #expect(home.store.load(uri: "file:///photos/other.jpg", modified: 100, size: .normal) == nil)
    }

    @Test func aLargerSizeIsShrunkWhenTheWantedOneIsMissing() throws {
        try home.store.save(image: patternImage(width: 512, height: 384), uri: uri, modified: 7, fileSize: 1, size: .xLarge)
        let shrunk = try #require(home.store.load(uri: uri, modified: 7, size: .large))
        #expect(shrunk.size == PixelSize(width: 256, height: 192))
        #expect(shrunk.sourceSize == PixelSize(width: 512, height: 384))
        #expect(home.store.load(uri: uri, modified: 7, size: .large, allowLarger: false) == nil)
        #expect(home.store.load(uri: uri, modified: 8, size: .large) == nil)  // stale is stale at any size
        #expect(home.store.load(uri: uri, modified: 7, size: .xxLarge) == nil)  // smaller ones are not blown up
    }

    @Test func anImageLargerThanTheSizeIsShrunkBeforeSaving() throws {
        try home.store.save(image: patternImage(width: 400, height: 200), uri: uri, modified: 1, fileSize: 1, size: .normal)
        let loaded = try #require(home.store.load(uri: uri, modified: 1, size: .normal))
        #expect(loaded.size == PixelSize(width: 128, height: 64))
    }

    @Test func aCutOffOrForeignFileIsNotAThumbnail() throws {
        try home.store.save(image: patternImage(width: 100, height: 100), uri: uri, modified: 1, fileSize: 1, size: .normal)
        let path = home.layout.path(forURI: uri, size: .normal)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(home.store.load(uri: uri, modified: 1, size: .normal) == nil)

        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        #expect(home.store.load(uri: uri, modified: 1, size: .normal) == nil)

        // A PNG without the keys (some other program's file under that name).
        let pixbuf = makePixbuf(width: 10, height: 10, rgba: 0xFF00_00FF)
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        #expect(gdk_pixbuf_savev(pixbuf, path, "png", nil, nil, nil) != 0)
        #expect(home.store.load(uri: uri, modified: 1, size: .normal) == nil)
    }

    @Test func textKeysAfterTheImageDataAreRead() throws {
        // The standard does not say where the keys go; some writers put them after the pixels.
        try home.store.save(image: patternImage(width: 40, height: 30), uri: uri, modified: 9, fileSize: 1, size: .normal)
        let path = home.layout.path(forURI: uri, size: .normal)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var chunks: [[UInt8]] = []
        var i = 8
        while i < bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            chunks.append(Array(bytes[i..<(i + 12 + length)]))
            i += 12 + length
        }
        let isText = { (chunk: [UInt8]) in ["tEXt", "iTXt", "zTXt"].contains(String(decoding: chunk[4..<8], as: UTF8.self)) }
        let text = chunks.filter(isText), other = chunks.filter { !isText($0) }
        #expect(text.count >= 3)
        let moved = Array(bytes[0..<8]) + other.dropLast().joined() + text.joined() + other.last!
        try Data(moved).write(to: URL(fileURLWithPath: path))
        #expect(home.store.load(uri: uri, modified: 9, size: .normal) != nil)
    }

    @Test func aFIFOInPlaceOfAThumbnailDoesNotBlock() throws {
        try FileManager.default.createDirectory(atPath: home.layout.directory(for: .normal), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home.layout.failureDirectory, withIntermediateDirectories: true)
        #expect(mkfifo(home.layout.path(forURI: uri, size: .normal), 0o600) == 0)
        #expect(mkfifo(home.layout.failurePath(forURI: uri), 0o600) == 0)
        let store = home.store, uri = uri
        let result = runOnThread { store.load(uri: uri, modified: 1, size: .normal) == nil && !store.hasFailed(uri: uri, modified: 1) }
        #expect(result == true)
    }

    @Test func failuresAreRecordedPerModificationTime() throws {
        let broken = "file:///photos/broken.jpg"
        #expect(!home.store.hasFailed(uri: broken, modified: 50))
        try home.store.recordFailure(uri: broken, modified: 50, failure: DecodeFailure(.corrupt, "The image is damaged: “bad” data"))
        #expect(home.store.hasFailed(uri: broken, modified: 50))
        #expect(home.store.recordedFailure(uri: broken, modified: 50) == DecodeFailure(.corrupt, "The image is damaged: “bad” data"))
        #expect(!home.store.hasFailed(uri: broken, modified: 51))  // the file changed: try again
        #expect(!home.store.hasFailed(uri: "file:///photos/fine.jpg", modified: 50))

        // As GNOME writes them: a 1×1 PNG with the URI and the modification time.
        let path = home.path + "/thumbnails/fail/gphotobrowse-0.1.0/" + MD5.hex(broken) + ".png"
        #expect(pngText(path, "Thumb::URI") == broken)
        #expect(pngText(path, "Thumb::MTime") == "50")
        let pixbuf = try #require(gdk_pixbuf_new_from_file(path, nil))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        #expect(gdk_pixbuf_get_width(pixbuf) == 1 && gdk_pixbuf_get_height(pixbuf) == 1)
        // A failure entry is not a thumbnail.
        #expect(home.store.load(uri: broken, modified: 50, size: .normal) == nil)
    }

    @Test func nothingIsWrittenForFilesInsideTheCache() throws {
        let image = patternImage(width: 16, height: 16)
        let inside = fileURI(home.path + "/thumbnails/large/0123456789abcdef0123456789abcdef.png")
        #expect(throws: ThumbnailCacheError.self) {
            try home.store.save(image: image, uri: inside, modified: 1, fileSize: 1, size: .normal)
        }
        #expect(throws: ThumbnailCacheError.self) { try home.store.recordFailure(uri: inside, modified: 1) }
        #expect(home.contents().isEmpty)

        // Reached through a symbolic link, once the cache exists.
        try home.store.save(image: image, uri: uri, modified: 1, fileSize: 1, size: .normal)
        home.folder.symlink("link", to: home.path + "/thumbnails")
        let throughLink = home.folder.uri("link") + "/normal/" + MD5.hex(uri) + ".png"
        #expect(home.store.isInsideCache(uri: throughLink))
        #expect(home.store.isInsideCache(uri: home.folder.uri("link") + "/normal/missing.png"))
        #expect(!home.store.isInsideCache(uri: home.folder.uri("photo.jpg")))
        #expect(!home.store.isInsideCache(uri: "sftp://host/photo.jpg"))
    }

    @Test func storesDoNotShareCacheHomes() throws {
        let other = ThumbnailCacheHome()
        try home.store.save(image: patternImage(width: 16, height: 16), uri: uri, modified: 1, fileSize: 1, size: .normal)
        #expect(other.store.load(uri: uri, modified: 1, size: .normal) == nil)
        #expect(other.contents().isEmpty)
    }
}
