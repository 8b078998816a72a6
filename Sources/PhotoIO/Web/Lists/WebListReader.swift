import Foundation
import Glibc
import PhotoCore

/// Reads a web album's list (in a decoder process: its bytes come from the web): a photo
/// list in JSON (`JSONPhotoList`), a folder's listing page or any web page's links to photos
/// (`HTMLPhotoLinks`), or a `text/uri-list`. Which one is told by the type the server gave,
/// else by the first bytes.
public enum WebListReader {
    /// The most bytes a list may have (as its download's limit).
    public static let maxBytes = 32 << 20

    public enum Format: Equatable, Sendable {
        case json, html, uriList
        /// Text of no telling type (`text/plain`, none): a list of addresses if it holds any.
        case plainText
    }

    /// Reads the list in the file at `descriptor`, whose addresses are relative to `baseURL`.
    public static func read(descriptor: Int32, baseURL: String, contentType: String?,
                            cancellation: CancellationFlag) -> Result<WebPhotoList, DecodeFailure> {
        readAll(descriptor).flatMap { bytes in
            read(bytes, baseURL: baseURL, contentType: contentType, cancellation: cancellation)
        }
    }

    /// Reads the list in `bytes`.
    public static func read(_ bytes: [UInt8], baseURL: String, contentType: String?,
                            cancellation: CancellationFlag) -> Result<WebPhotoList, DecodeFailure> {
        guard let builder = WebListBuilder(baseURL: baseURL, cancellation: cancellation) else {
            return .failure(DecodeFailure(.unreadable, tr("The album’s address cannot be read.")))
        }
        let read: Result<Void, DecodeFailure>
        switch format(of: bytes, contentType: contentType) {
        case .json?: read = JSONPhotoList.read(bytes, into: builder)
        case .html?: read = HTMLPhotoLinks.read(bytes, baseURL: baseURL, into: builder)
        case .uriList?: read = readURIList(bytes, into: builder, strict: false)
        case .plainText?: read = readURIList(bytes, into: builder, strict: true)
        case nil: read = .failure(notAList(contentType))
        }
        if cancellation.isCancelled { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
        return read.map { builder.list }
    }

    /// The list's format: the server's type when it tells, else the first bytes.
    static func format(of bytes: [UInt8], contentType: String?) -> Format? {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if type == "text/uri-list" { return .uriList }
        if type == "text/html" || type == "application/xhtml+xml" { return .html }
        if type == "application/json" || type == "text/json" || type.hasSuffix("+json") { return .json }
        let telling = !type.isEmpty && !["text/plain", "application/octet-stream", "binary/octet-stream", "application/x-unknown"].contains(type)
        // The first byte that is not a byte order mark or white space.
        let first = bytes.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }.first
        switch first {
        case UInt8(ascii: "{")?, UInt8(ascii: "[")?: return .json
        case UInt8(ascii: "<")?: return .html
        case nil: return telling ? nil : .plainText
        default: return telling ? nil : .plainText
        }
    }

    static func notAList(_ contentType: String?) -> DecodeFailure {
        guard let contentType else { return DecodeFailure(.notAnImage, tr("This address holds neither a photo nor a list of photos.")) }
        return DecodeFailure(.notAnImage, tr("This address holds neither a photo nor a list of photos (the server calls it %s).", contentType))
    }

    /// A `text/uri-list` (RFC 2483): an address a line, lines starting with `#` are comments.
    /// `strict`: text that only might be a list, which is not one unless it names a photo.
    static func readURIList(_ bytes: [UInt8], into builder: WebListBuilder, strict: Bool) -> Result<Void, DecodeFailure> {
        var named = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard !builder.isCancelled else { break }
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, !text.hasPrefix("#") else { continue }
            // Text that only might be a list counts absolute addresses alone.
            if strict && !WebAddress.isWebAddress(text) {
                builder.skip()
            } else if builder.addPhoto(text) {
                named += 1
            }
        }
        if strict && named == 0 { return .failure(notAList(nil)) }
        return .success(())
    }

    /// The whole file at `descriptor`, at most `maxBytes`.
    static func readAll(_ descriptor: Int32) -> Result<[UInt8], DecodeFailure> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(DecodeFailure(.unreadable, tr("The list could not be read (%s).", String(cString: strerror(errno)))))
            }
            if n == 0 { return .success(bytes) }
            guard bytes.count + n <= maxBytes else {
                return .failure(DecodeFailure(.tooLarge, tr("The list is larger than %s, too large to read.", "32 MiB")))
            }
            bytes += chunk[0..<n]
        }
    }
}
