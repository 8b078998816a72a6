import CExif
import CGdkPixbuf
import Foundation
import Glibc
import PhotoCore
@testable import PhotoIO
import Testing

/// The preview a camera embeds in a photo's EXIF, read from the photo's first bytes: in a
/// decoder process as here, turned as the photo is, and none where there is none.
@Suite struct EmbeddedPreviewTests {
    private let folder = TempFolder()

    /// A 1600×1200 blue JPEG holding a 160×120 red preview, with EXIF orientation
    /// `orientation`.
    private func photo(_ name: String, orientation: UInt16) -> String {
        let main = folder.bytes(URL(fileURLWithPath: folder.image("main-\(name)", width: 1600, height: 1200, rgba: 0x0000_FFFF, type: "jpeg")).lastPathComponent)
        let thumbnail = folder.bytes(URL(fileURLWithPath: folder.image("thumb-\(name)", width: 160, height: 120, rgba: 0xFF00_00FF, type: "jpeg")).lastPathComponent)
        return folder.file(name, bytes: Array(main[0..<2]) + exifWithPreview(thumbnail, orientation: orientation) + Array(main[2...]))
    }

    /// An APP1 segment made with libexif: IFD0's orientation and IFD1's JPEG preview.
    private func exifWithPreview(_ jpeg: [UInt8], orientation: UInt16) -> [UInt8] {
        let data = exif_data_new()!
        defer { exif_data_unref(data) }
        exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
        let entry = exif_entry_new()!
        exif_content_add_entry(data.pointee.ifd.0, entry)
        exif_entry_initialize(entry, EXIF_TAG_ORIENTATION)
        exif_set_short(entry.pointee.data, EXIF_BYTE_ORDER_INTEL, orientation)
        exif_entry_unref(entry)
        let copy = malloc(jpeg.count)!.assumingMemoryBound(to: UInt8.self)
        jpeg.withUnsafeBytes { copy.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: jpeg.count) }
        data.pointee.data = copy
        data.pointee.size = UInt32(jpeg.count)
        var saved: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &saved, &size)
        defer { free(saved) }
        let payload = Array(UnsafeBufferPointer(start: saved!, count: Int(size)))
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    private static func decoder() -> IsolatedDecoder {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        return IsolatedDecoder(settings: settings)
    }

    @Test func thePreviewIsReadFromTheFirstBytesAndTurnedAsThePhotoIs() throws {
        let isolated = Self.decoder()
        for (orientation, size) in [(UInt16(1), PixelSize(width: 160, height: 120)), (6, PixelSize(width: 120, height: 160))] {
            let path = photo("o\(orientation).jpg", orientation: orientation)
            let request = DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 256, height: 256))
            for image in [try isolated.embeddedPreview(request, cancellation: CancellationFlag()).get(),
                          try PixbufDecoder().embeddedPreview(request, cancellation: CancellationFlag()).get()] {
                #expect(image.size == size)
                // The preview's red, not the photo's blue.
                let pixel = (0..<3).map { image.pixels.bytes.load(fromByteOffset: $0, as: UInt8.self) }
                #expect(pixel[0] > 200 && pixel[2] < 60, "\(pixel)")
            }
        }
        // The whole photo decodes as itself (blue), turned.
        let turned = try isolated.decode(DecodeRequest(uri: fileURI(folder.path("o6.jpg")), fitting: PixelSize(width: 256, height: 256)),
                                         cancellation: CancellationFlag()).get()
        #expect(turned.size == PixelSize(width: 192, height: 256))
    }

    @Test func aPhotoWithoutAPreviewHasNone() {
        let plain = folder.image("plain.jpg", width: 300, height: 200, type: "jpeg")
        let png = folder.image("plain.png", width: 300, height: 200)
        for path in [plain, png] {
            let request = DecodeRequest(uri: fileURI(path), fitting: PixelSize(width: 256, height: 256))
            #expect(Self.decoder().embeddedPreview(request, cancellation: CancellationFlag()).failure?.kind == .notAnImage)
        }
    }

    /// The first bytes of a photo on another machine may end within its EXIF: that is told
    /// apart from a photo without a date or a preview, so that more bytes are read.
    @Test func firstBytesThatEndWithinTheEXIFSaySo() throws {
        // A large preview (noise compresses badly), so the EXIF runs past 16 KiB.
        let main = folder.bytes(URL(fileURLWithPath: folder.image("big-main", width: 800, height: 600, type: "jpeg")).lastPathComponent)
        let noisy = makePixbuf(width: 240, height: 180, rgba: 0x808080FF)
        defer { g_object_unref(UnsafeMutableRawPointer(noisy)) }
        let pixels = gdk_pixbuf_get_pixels(noisy)!
        for i in 0..<Int(gdk_pixbuf_get_rowstride(noisy)) * 180 { pixels[i] = UInt8.random(in: 0...255) }
        let preview = folder.bytes(URL(fileURLWithPath: folder.save(noisy, as: "noisy.jpg", type: "jpeg")).lastPathComponent)
        #expect(preview.count > 16 << 10)
        let whole = Array(main[0..<2]) + exifWithPreview(preview, orientation: 1) + Array(main[2...])
        folder.file("whole.jpg", bytes: whole)
        folder.file("first.jpg", bytes: Array(whole.prefix(RemoteFileCopies.metadataPrefix)))
        func read(_ name: String) -> (found: Bool, cutShort: Bool, date: (DateTakenCache.Value?, Bool)) {
            let fd = open(folder.path(name), O_RDONLY)
            defer { close(fd) }
            let preview = EmbeddedPreview.read(descriptor: fd)
            lseek(fd, 0, SEEK_SET)
            return (preview.preview != nil, preview.cutShort, PhotoMetadata.readDateFindingEnd(descriptor: fd))
        }
        let cut = read("first.jpg"), complete = read("whole.jpg")
        #expect(!cut.found && cut.cutShort && cut.date.1)
        #expect(complete.found && !complete.cutShort && !complete.date.1)
        // A photo without EXIF, read whole, is not cut short.
        let plainFD = open(folder.image("plain2.jpg", width: 300, height: 200, type: "jpeg"), O_RDONLY)
        defer { close(plainFD) }
        #expect(!PhotoMetadata.readDateFindingEnd(descriptor: plainFD).cutShort)
    }
}

