import CExif
import Foundation
import PhotoCore
import PhotoIO
import Testing

/// Save Rotation on real files, with real decoder processes: the orientation written, every
/// other byte kept, undone, and the files it must not touch left alone.
@Suite(.serialized) struct SavedRotationTests {
    private let folder = TempFolder()

    private static let decoder: IsolatedDecoder = {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        return IsolatedDecoder(settings: settings)
    }()

    private func names() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []) }

    /// IFD0's orientation as libexif reads it from the file; nil when it has none.
    private func orientation(_ name: String) -> Int? {
        guard let data = exif_data_new_from_file(folder.path(name)) else { return nil }
        defer { exif_data_unref(data) }
        guard let entry = exif_content_get_entry(data.pointee.ifd.0, EXIF_TAG_ORIENTATION) else { return nil }
        return Int(exif_get_short(entry.pointee.data, exif_data_get_byte_order(data)))
    }

    @Test func aTurnAddsToTheOrientationAndOnlyTheTagsTwoBytesChange() throws {
        folder.image("plain.jpg", width: 60, height: 40, type: "jpeg")
        let bytes = jpeg(folder.bytes("plain.jpg"), withExif: [.orientation(6), .ascii(0x010F, "Gphotobrowse Camera", in: .ifd0)])
        _ = folder.file("IMG_1.jpg", bytes: bytes)
        chmod(folder.path("IMG_1.jpg"), 0o604)

        let saved = SavedRotation.save(.turn(1), to: folder.uri("IMG_1.jpg"), decoder: Self.decoder, cancellation: CancellationFlag())
        #expect(saved == .success(SavedRotation.Saved(previous: ExifOrientation(6)!, now: ExifOrientation(3)!)))
        #expect(orientation("IMG_1.jpg") == 3)
        let written = folder.bytes("IMG_1.jpg")
        #expect(written.count == bytes.count)
        #expect(zip(written, bytes).filter { $0 != $1 }.count == 1)
        var status = stat()
        stat(folder.path("IMG_1.jpg"), &status)
        #expect(status.st_mode & 0o777 == 0o604)
        #expect(names() == ["plain.jpg", "IMG_1.jpg"])

        #expect((try? SavedRotation.save(.set(ExifOrientation(6)!), to: folder.uri("IMG_1.jpg"), decoder: Self.decoder, cancellation: CancellationFlag()).get()) != nil)
        #expect(folder.bytes("IMG_1.jpg") == bytes)
    }

    @Test func aJPEGWithoutExifGetsASegmentAndItsImageDataStays() throws {
        folder.image("bare.jpg", width: 64, height: 48, type: "jpeg")
        let before = folder.bytes("bare.jpg")
        let segment = try #require(JPEGExif.segment(in: before))
        #expect(segment.isEmpty)
        #expect((try? SavedRotation.save(.turn(-1), to: folder.uri("bare.jpg"), decoder: Self.decoder, cancellation: CancellationFlag()).get())?.now == ExifOrientation(8))
        #expect(orientation("bare.jpg") == 8)
        let after = folder.bytes("bare.jpg")
        let added = try #require(JPEGExif.segment(in: after))
        #expect(OrientationEdit.onlySegmentDiffers(original: before, written: after, segment: segment, newSegmentLength: added.count))
    }

    @Test func aPNGIsRefusedAndLeftAsItIs() {
        folder.image("flat.png", width: 20, height: 20)
        let before = folder.bytes("flat.png")
        #expect(!SavedRotation.canSave(contentType: "image/png"))
        guard case .failure = SavedRotation.save(.turn(1), to: folder.uri("flat.png"), decoder: Self.decoder, cancellation: CancellationFlag()) else {
            Issue.record("a PNG was rotated")
            return
        }
        #expect(folder.bytes("flat.png") == before)
        #expect(names() == ["flat.png"])
    }
}
