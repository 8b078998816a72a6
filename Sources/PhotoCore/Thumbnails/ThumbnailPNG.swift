/// The chunks of a thumbnail file, checked before a PNG decoder sees it, and put in the order
/// a decoder that reads as the bytes come can use.
///
/// A thumbnail is a whole PNG of at most `maxEdge` pixels a side: the signature, `IHDR`
/// first, chunks that each lie inside the file, and `IEND` last, ending the file. The end
/// matters: gdk-pixbuf accepts some PNG files cut off after their header, with the missing
/// rows left blank, and a cut-off file must never pass for a thumbnail.
///
/// The standard does not say where the text keys go, and some writers put them after the
/// image data, where a progressive PNG decoder (gdk-pixbuf's `GdkPixbufLoader`) no longer
/// reports them: `arranged` moves the text chunks (`tEXt`, `zTXt`, `iTXt`) ahead of the
/// first `IDAT`, which the format allows, each chunk whole with its own CRC.
public enum ThumbnailPNG {
    /// The largest thumbnail edge read (the largest cache size is 1024 px).
    public static let maxEdge = 4096

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Why bytes are not a thumbnail PNG.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// One chunk: where it lies in the file (length, type, data and CRC) and its type.
    struct Chunk {
        let start: Int
        let end: Int
        let type: String
        var isText: Bool { type == "tEXt" || type == "zTXt" || type == "iTXt" }
    }

    /// The image's size, and `bytes` with the text chunks ahead of the image data (the same
    /// bytes when they are there already), or why `bytes` are not a thumbnail PNG.
    public static func arranged(_ bytes: [UInt8]) -> Result<(size: PixelSize, bytes: [UInt8]), Refusal> {
        let chunks: [Chunk]
        let size: PixelSize
        switch walk(bytes) {
        case .success(let walked): (chunks, size) = walked
        case .failure(let refusal): return .failure(refusal)
        }
        guard let firstData = chunks.firstIndex(where: { $0.type == "IDAT" }) else {
            return .failure(Refusal(reason: "no image data"))
        }
        let late = chunks[firstData...].filter(\.isText)
        guard !late.isEmpty else { return .success((size, bytes)) }
        var out = Array(bytes[0..<chunks[firstData].start])
        out.reserveCapacity(bytes.count)
        for chunk in late { out += bytes[chunk.start..<chunk.end] }
        for chunk in chunks[firstData...] where !chunk.isText { out += bytes[chunk.start..<chunk.end] }
        return .success((size, out))
    }

    /// The chunks of `bytes` and the size `IHDR` gives, checked as the type says.
    static func walk(_ bytes: [UInt8]) -> Result<([Chunk], PixelSize), Refusal> {
        guard bytes.count >= signature.count, bytes[0..<signature.count].elementsEqual(signature) else {
            return .failure(Refusal(reason: "not a PNG file"))
        }
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        var chunks: [Chunk] = []
        var position = signature.count
        while position < bytes.count {
            guard bytes.count - position >= 12 else { return .failure(Refusal(reason: "a chunk cut short")) }
            let length = u32(position)
            guard length <= bytes.count - position - 12 else { return .failure(Refusal(reason: "a chunk longer than the file")) }
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            let chunk = Chunk(start: position, end: position + 12 + length, type: type)
            if chunks.isEmpty {
                guard type == "IHDR", length == 13 else { return .failure(Refusal(reason: "no header first")) }
            }
            chunks.append(chunk)
            position = chunk.end
            if type == "IEND" {
                guard length == 0, position == bytes.count else { return .failure(Refusal(reason: "bytes after the end")) }
                let width = u32(chunks[0].start + 8), height = u32(chunks[0].start + 12)
                guard (1...maxEdge).contains(width), (1...maxEdge).contains(height) else {
                    return .failure(Refusal(reason: "\(width)×\(height) pixels"))
                }
                return .success((chunks, PixelSize(width: width, height: height)))
            }
        }
        return .failure(Refusal(reason: "no end"))
    }
}
