import CGdkPixbuf
import Foundation
import PhotoCore
import Synchronization
@testable import PhotoIO

/// A folder for one test with a thumbnail cache home of its own inside (never ~/.cache).
final class ThumbnailCacheHome {
    let folder = TempFolder()
    var path: String { folder.path("cache") }
    var layout: ThumbnailCacheLayout { ThumbnailCacheLayout(cacheHome: path) }
    var store: ThumbnailStore { ThumbnailStore(cacheHome: path) }

    /// Every file and folder under the cache home, relative to it, sorted.
    func contents() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        return (enumerator.allObjects as? [String] ?? []).sorted()
    }
}

/// An image whose every pixel differs from its neighbours (so a shifted or mangled copy
/// shows), with `padding` unused bytes at the end of each row.
func patternImage(width: Int, height: Int, hasAlpha: Bool = false, padding: Int = 0,
                  sourceSize: PixelSize? = nil, format: String = "jpeg") -> DecodedImage {
    let channels = hasAlpha ? 4 : 3
    let stride = width * channels + padding
    let pixels = PixelBuffer(count: stride * height) { storage in
        let bytes = storage.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let p = bytes + y * stride + x * channels
                p[0] = UInt8(truncatingIfNeeded: x &* 7 &+ y)
                p[1] = UInt8(truncatingIfNeeded: y &* 5 &+ 3)
                p[2] = UInt8(truncatingIfNeeded: x ^ y)
                if hasAlpha { p[3] = UInt8(truncatingIfNeeded: 255 - (x &+ y)) }
            }
            for i in 0..<padding { bytes[y * stride + width * channels + i] = 0xEE }
        }
    }
    return DecodedImage(size: PixelSize(width: width, height: height), stride: stride, hasAlpha: hasAlpha,
                        pixels: pixels, sourceSize: sourceSize ?? PixelSize(width: width, height: height), format: format)
}

/// The image's pixels row by row, without any padding at the ends of rows.
func packedPixels(_ image: DecodedImage) -> [UInt8] {
    let rowBytes = image.size.width * (image.hasAlpha ? 4 : 3)
    var out: [UInt8] = []
    out.reserveCapacity(rowBytes * image.size.height)
    for y in 0..<image.size.height {
        let row = UnsafeRawBufferPointer(start: image.pixels.bytes + y * image.stride, count: rowBytes)
        out.append(contentsOf: row)
    }
    return out
}

/// The permission bits of a file or folder.
func permissions(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return -1 }
    return Int(status.st_mode & 0o777)
}

/// A PNG's text keys, read with gdk-pixbuf as any other program would.
func pngText(_ path: String, _ key: String) -> String? {
    guard let pixbuf = gdk_pixbuf_new_from_file(path, nil) else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    return gdk_pixbuf_get_option(pixbuf, "tEXt::" + key).map { String(cString: $0) }
}

/// A decoder that counts its calls and answers from a script, to see what the provider
/// asks of it.
final class ScriptedDecoder: ImageDecoding {
    enum Answer: Sendable {
        /// A pattern image of this size, shrunk to fit the request's box.
        case image(PixelSize)
        case failure(DecodeFailure)
    }

    private let state: Mutex<(answer: Answer, requests: [DecodeRequest])>

    init(_ answer: Answer) {
        state = Mutex((answer, []))
    }

    var calls: Int { state.withLock { $0.requests.count } }
    var requests: [DecodeRequest] { state.withLock { $0.requests } }
    func answer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    func decode(_ request: DecodeRequest, cancellation: CancellationFlag) -> Result<DecodedImage, DecodeFailure> {
        let answer = state.withLock { state -> Answer in
            state.requests.append(request)
            return state.answer
        }
        switch answer {
        case .image(let size):
            let fitted = size.fitting(in: request.fitting)
            return .success(patternImage(width: fitted.width, height: fitted.height, sourceSize: size))
        case .failure(let failure):
            return .failure(failure)
        }
    }
}

/// Sets a file's modification time (whole seconds), as `touch -d` would.
func setModified(_ path: String, seconds: Int64) {
    var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
    precondition(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path)")
}

/// A file's modification time in whole seconds, and its size.
func fileStamp(_ path: String) -> (modified: Int64, size: Int64) {
    var status = stat()
    precondition(stat(path, &status) == 0)
    return (Int64(status.st_mtim.tv_sec), Int64(status.st_size))
}
