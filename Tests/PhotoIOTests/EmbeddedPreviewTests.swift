import CExif
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
}
