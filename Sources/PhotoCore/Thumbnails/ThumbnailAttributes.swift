/// The text keys of a thumbnail PNG (the Thumbnail Managing Standard's attributes), and the
/// rule deciding whether a cached thumbnail still shows a file.
public struct ThumbnailAttributes: Sendable, Equatable {
    /// The keys, as stored in PNG text chunks.
    public enum Key {
        public static let uri = "Thumb::URI"
        public static let modified = "Thumb::MTime"
        public static let fileSize = "Thumb::Size"
        public static let imageWidth = "Thumb::Image::Width"
        public static let imageHeight = "Thumb::Image::Height"
        public static let mimeType = "Thumb::Mimetype"
        /// A video's length in seconds (the standard's key, as video thumbnailers write it).
        public static let movieLength = "Thumb::Movie::Length"
        public static let software = "Software"
        /// This program's own key on failure entries: why the file could not be read,
        /// in words for a person (the standard leaves failure entries otherwise bare).
        public static let failureReason = "X-GPhotoBrowse::FailureReason"
        /// The `DecodeFailure.Kind` of a failure entry.
        public static let failureKind = "X-GPhotoBrowse::FailureKind"

        /// This program's own key: where a motion photo's movie lies in it, "OFFSET LENGTH"
        /// in bytes (`EmbeddedMovie`).
        public static let motionMovie = "X-GPhotoBrowse::MotionMovie"

        /// Every key this program reads.
        public static let all = [uri, modified, fileSize, imageWidth, imageHeight, mimeType, software, failureReason, failureKind, movieLength,
                                 motionMovie]
    }

    /// `Thumb::URI`: the original's URI.
    public var uri: String?
    /// `Thumb::MTime`: the original's modification time in whole seconds, as `stat` gives
    /// it; nil when absent or not an integer.
    public var modified: Int64?
    /// `Thumb::Size`: the original's size in bytes, when recorded (optional in the standard).
    public var fileSize: Int64?
    /// `Thumb::Image::Width` and `::Height`: the original image's dimensions, when recorded.
    public var imageSize: PixelSize?
    /// `Software`: the program that wrote the thumbnail.
    public var software: String?
    /// `Thumb::Mimetype`: the original's MIME type, when recorded.
    public var mimeType: String?
    /// `Thumb::Movie::Length`: a video's length in milliseconds (written in seconds).
    public var movieLength: Int?
    /// Where a motion photo's movie lies in it.
    public var motionMovie: EmbeddedMovie?
    /// This program's failure reason and kind, on its failure entries.
    public var failureReason: String?
    public var failureKind: String?
    /// True when `Thumb::Size` is present but not a number: such a thumbnail is never valid.
    private var fileSizeIsMalformed = false

    public init(uri: String?, modified: Int64?, fileSize: Int64? = nil, imageSize: PixelSize? = nil,
                software: String? = nil, mimeType: String? = nil) {
        self.uri = uri
        self.modified = modified
        self.fileSize = fileSize
        self.imageSize = imageSize
        self.software = software
        self.mimeType = mimeType
    }

    /// Reads the attributes from text chunks: `text(key)` returns the value stored under a
    /// key of `Key` (the reader adds whatever prefix its PNG library uses).
    public init(text: (String) -> String?) {
        uri = text(Key.uri)
        modified = text(Key.modified).flatMap(Self.integer)
        if let size = text(Key.fileSize) {
            fileSize = Self.integer(size)
            fileSizeIsMalformed = fileSize == nil
        }
        if let width = text(Key.imageWidth).flatMap(Self.integer), let height = text(Key.imageHeight).flatMap(Self.integer),
           width > 0, height > 0, width <= Int64(Int32.max), height <= Int64(Int32.max) {
            imageSize = PixelSize(width: Int(width), height: Int(height))
        }
        software = text(Key.software)
        mimeType = text(Key.mimeType)
        failureReason = text(Key.failureReason)
        failureKind = text(Key.failureKind)
        if let length = text(Key.movieLength).flatMap(Double.init), length.isFinite, length >= 0, length < 1e9 {
            movieLength = Int((length * 1000).rounded())
        }
        motionMovie = text(Key.motionMovie).flatMap(EmbeddedMovie.init(text:))
    }

    /// Whether a thumbnail with these attributes shows the file `uri` as it is now: its
    /// `Thumb::URI` is exactly `uri`, its `Thumb::MTime` is the file's modification time in
    /// whole seconds, and its `Thumb::Size`, when recorded and when the file's size is
    /// known, is the file's size. Anything missing or malformed makes it invalid, so it
    /// is made again.
    public func isValid(forURI uri: String, modified: Int64, fileSize: Int64? = nil) -> Bool {
        guard self.uri == uri, self.modified == modified, !fileSizeIsMalformed else { return false }
        if let recorded = self.fileSize, let fileSize, recorded != fileSize { return false }
        return true
    }

    /// The key/value pairs to write with a thumbnail, in a stable order.
    public var entries: [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        if let uri { out.append((Key.uri, uri)) }
        if let modified { out.append((Key.modified, String(modified))) }
        if let fileSize { out.append((Key.fileSize, String(fileSize))) }
        if let imageSize {
            out.append((Key.imageWidth, String(imageSize.width)))
            out.append((Key.imageHeight, String(imageSize.height)))
        }
        if let mimeType { out.append((Key.mimeType, mimeType)) }
        if let software { out.append((Key.software, software)) }
        if let movieLength { out.append((Key.movieLength, Self.seconds(milliseconds: movieLength))) }
        if let motionMovie { out.append((Key.motionMovie, motionMovie.text)) }
        if let failureKind { out.append((Key.failureKind, failureKind)) }
        if let failureReason { out.append((Key.failureReason, failureReason)) }
        return out
    }

    /// The `Software` value this program writes.
    public static let thisSoftware = AppInfo.name + " " + AppInfo.version

    /// Milliseconds as seconds with up to three decimals ("7", "7.25").
    static func seconds(milliseconds: Int) -> String {
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return String(milliseconds / 1000) }
        var decimals = String(fraction + 1000).dropFirst()
        while decimals.last == "0" { decimals.removeLast() }
        return "\(milliseconds / 1000).\(decimals)"
    }

    /// A decimal integer, optionally signed, nothing else (no spaces, no fraction).
    private static func integer(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 43 }) else { return nil }
        return Int64(text)
    }
}
