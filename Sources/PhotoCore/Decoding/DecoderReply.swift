/// Where decoded pixels lie in the shared memory a decoder process hands back: one frame for
/// a still image, several for an animation, each 8-bit RGB or RGBA (straight alpha) rows
/// `stride` bytes apart, starting `offset` bytes into the memory.
///
/// The browser checks a layout against the memory's real size before it reads a byte
/// (`check(memorySize:)`): a decoder that lies about its pixels gets its file a failure, not
/// the browser a read past the end.
public struct PixelLayout: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        public var offset: Int
        public var size: PixelSize
        public var stride: Int
        /// Milliseconds the frame shows (0 for a still image).
        public var duration: Int

        public init(offset: Int, size: PixelSize, stride: Int, duration: Int = 0) {
            self.offset = offset
            self.size = size
            self.stride = stride
            self.duration = duration
        }

        public var byteCount: Int { stride * size.height }
    }

    public var frames: [Frame]
    public var hasAlpha: Bool
    /// The image's own size before shrinking, after orientation.
    public var sourceSize: PixelSize
    /// The loader's name for the format ("jpeg", "png", …).
    public var format: String
    /// Whether an animation starts over after its last frame.
    public var loops: Bool
    /// The file ended before its image did (`DecodedImage.endMissing`).
    public var endMissing = false
    /// A video's length in milliseconds (`DecodedImage.videoDuration`); nil for a photo.
    public var videoDuration: Int?
    /// Clockwise quarter turns a video's container asks for (its frame is already turned):
    /// what the viewer's player must turn its pictures by.
    public var videoTurns = 0
    /// Where a motion photo's movie lies in its file (`DecodedImage.motionMovie`).
    public var motionMovie: EmbeddedMovie?

    public init(frames: [Frame], hasAlpha: Bool, sourceSize: PixelSize, format: String, loops: Bool = true) {
        self.frames = frames
        self.hasAlpha = hasAlpha
        self.sourceSize = sourceSize
        self.format = format
        self.loops = loops
    }

    public static let maxFrames = 1000
    public static let maxEdge = 65_535

    /// The bytes the frames need, laid end to end.
    public var totalBytes: Int { frames.reduce(0) { $0 + $1.byteCount } }

    /// Frames laid end to end from offset 0, rows of `stride(width)` bytes.
    public static func packed(_ sizes: [(PixelSize, duration: Int)], hasAlpha: Bool) -> [Frame] {
        var offset = 0
        return sizes.map { size, duration in
            let stride = rowBytes(width: size.width, hasAlpha: hasAlpha)
            defer { offset += stride * size.height }
            return Frame(offset: offset, size: size, stride: stride, duration: duration)
        }
    }

    /// A row of `width` pixels, padded to four bytes.
    public static func rowBytes(width: Int, hasAlpha: Bool) -> Int {
        (width * (hasAlpha ? 4 : 3) + 3) & ~3
    }

    /// The most bytes a row may have past its pixels.
    public static let maxRowPadding = 1024

    /// Throws unless every frame lies inside `memorySize` bytes and is a sane image.
    public func check(memorySize: Int) throws(DecoderMessage.Malformed) {
        guard !frames.isEmpty, frames.count <= Self.maxFrames else { throw .init(reason: "\(frames.count) frames") }
        guard (1...Self.maxEdge).contains(sourceSize.width), (1...Self.maxEdge).contains(sourceSize.height) else {
            throw .init(reason: "source size \(sourceSize)")
        }
        let channels = hasAlpha ? 4 : 3
        for frame in frames {
            guard (1...Self.maxEdge).contains(frame.size.width), (1...Self.maxEdge).contains(frame.size.height) else {
                throw .init(reason: "frame size \(frame.size)")
            }
            // Loaders align rows (libheif to 64 bytes and more, which for a small image is more
            // padding than pixels); a kilobyte is more than any aligns by.
            guard frame.stride >= frame.size.width * channels, frame.stride <= frame.size.width * channels + Self.maxRowPadding else {
                throw .init(reason: "stride \(frame.stride) for \(frame.size.width) pixels")
            }
            guard frame.offset >= 0, frame.duration >= 0, frame.duration <= 3_600_000 else {
                throw .init(reason: "frame offset \(frame.offset) or duration \(frame.duration)")
            }
            // Edges are at most 65,535 and the stride is bounded by the width: no overflow.
            let (end, overflow) = frame.offset.addingReportingOverflow(frame.byteCount)
            guard !overflow, end <= memorySize else {
                throw .init(reason: "frame ends at \(end) past \(memorySize) bytes")
            }
        }
    }
}

/// A decoder process's answer to one request.
public struct DecoderReply: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// Pixels, in the memory sent beside the reply.
        case pixels(PixelLayout)
        /// The date the photo was taken; nil when the file could not be read at all.
        case date(DateTakenCache.Value?)
        /// The dates of a batch of files, in the order their descriptors came, and which of
        /// the files ended before their EXIF did (a remote photo's first bytes: more are needed),
        /// and the camera each names (its make and model; "" for none, or none at all when no
        /// file names one), read from the same EXIF.
        case dates([DateTakenCache.Value?], cutShort: [Int] = [], cameras: [String] = [])
        /// What the file's content says for the Properties panel (`uri` and `name` empty).
        case properties(PhotoDetails)
        /// Why there is no result.
        case failure(DecodeFailure)
        /// Test mode: what a probe found, one line per attempt.
        case probe(String)
        /// A thumbnail file's pixels (one frame, in the memory sent beside the reply; the
        /// source size is the file's own) and its text keys, by `ThumbnailAttributes.Key`:
        /// the browser decides whether the thumbnail is valid.
        case thumbnailFile(PixelLayout, text: [String: String])
        /// A web album's list: an encoded `WebPhotoList` of `byteCount` bytes, in the memory
        /// sent beside the reply.
        case webList(byteCount: Int)
        /// An EXIF block ("Exif\0\0" and the TIFF structure) of `byteCount` bytes, in the
        /// memory sent beside the reply.
        case exifBlock(byteCount: Int)
        /// A JPEG's EXIF orientation (`DecoderRequest.Operation.orientation`): the one found,
        /// the bytes of the file its EXIF segment takes (empty: where one goes), and the new
        /// payload's `byteCount` bytes in the memory beside the reply (0: none asked for).
        case orientationEdit(found: Int, segment: Range<Int>, byteCount: Int)
        /// The marks a sidecar or a photo holds (`PhotoMarks.none` when it holds none).
        case marks(PhotoMarks)
        /// A merged sidecar of `byteCount` bytes, in the memory sent beside the reply.
        case sidecar(byteCount: Int)
        /// The Live Photo identifiers of a batch of files, in the order their descriptors came
        /// (nil: none), each as `LivePhotoIdentifier.normalized` makes it.
        case liveIdentifiers([String?])
        /// Where a motion photo's movie lies in its file; nil: it is no motion photo.
        case motionMovie(EmbeddedMovie?)
    }

    public var id: UInt64
    public var outcome: Outcome

    public init(id: UInt64, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    enum Tag: UInt8 {
        case id = 1, outcome, dates
        // pixels
        case frames, hasAlpha, sourceWidth, sourceHeight, format, loops
        // date
        case date
        // failure
        case failureKind, reason
        // properties
        case width, height, dateTaken, dateOffset, camera, lens, exposure, fNumber, iso, focal, focal35, latitude, longitude
        // probe
        case report
        // thumbnail file: its text keys, a tag each from here on (`ThumbnailAttributes.Key.all`)
        case thumbnailText
        // web list, past the thumbnail file's text keys
        case listBytes = 250
        // dates: the files cut short
        case datesCutShort
        // saved EXIF
        case exifBytes
        // orientation (its payload's size: `exifBytes`)
        case orientationFound, segmentStart, segmentEnd
        // marks; a merged sidecar's size
        case rating = 200, favourite, tags, sidecarBytes
        // pixels: the file ended before the image did
        case endMissing
        // pixels: a video's length, its container's rotation
        case videoDuration, videoTurns
        // dates: the cameras, a line each
        case cameras
        // pixels: a motion photo's movie, its offset and length
        case motionMovie
        // Live Photo identifiers, a line each ("" for none)
        case liveIdentifiers
        // marks: the place names, `PlaceNames.lines`
        case places
    }

    enum OutcomeCode: Int64 {
        // 2 was a reply saying a file holds no animation: a picture request now gets its pixels.
        case pixels = 1, date = 3, properties, failure, probe, dates, thumbnailFile, webList, exifBlock, orientationEdit, marks, sidecar, liveIdentifiers, motionMovie
    }

    /// The tag of each text key a thumbnail file reply carries.
    static let thumbnailTextTags: [(key: String, tag: UInt8)] = ThumbnailAttributes.Key.all.enumerated().map {
        ($1, Tag.thumbnailText.rawValue + UInt8($0))
    }

    /// How `dates` lists a file without a date, and one that could not be read (dates are
    /// µs since 1970: these lie before the universe).
    static let noDate = Int64.min, unreadable = Int64.min + 1

    static let failureKinds: [DecodeFailure.Kind] = [.unreadable, .notAnImage, .corrupt, .tooLarge, .cancelled, .unsafe, .timedOut, .cutShort, .unavailable]

    public var message: DecoderMessage {
        var fields: [UInt8: DecoderMessage.Value] = [Tag.id.rawValue: .int(Int64(bitPattern: id))]
        func set(_ tag: Tag, _ value: DecoderMessage.Value?) { if let value { fields[tag.rawValue] = value } }
        func code(_ code: OutcomeCode) { set(.outcome, .int(code.rawValue)) }
        func setLayout(_ layout: PixelLayout) {
            set(.frames, .ints(layout.frames.flatMap { [$0.offset, $0.size.width, $0.size.height, $0.stride, $0.duration].map(Int64.init) }))
            set(.hasAlpha, .int(layout.hasAlpha ? 1 : 0))
            set(.sourceWidth, .int(Int64(layout.sourceSize.width)))
            set(.sourceHeight, .int(Int64(layout.sourceSize.height)))
            set(.format, .text(layout.format))
            set(.loops, .int(layout.loops ? 1 : 0))
            if layout.endMissing { set(.endMissing, .int(1)) }
            set(.videoDuration, layout.videoDuration.map { .int(Int64($0)) })
            if layout.videoTurns != 0 { set(.videoTurns, .int(Int64(layout.videoTurns))) }
            if let movie = layout.motionMovie { set(.motionMovie, .ints([movie.offset, movie.length])) }
        }
        switch outcome {
        case .pixels(let layout):
            code(.pixels)
            setLayout(layout)
        case .thumbnailFile(let layout, let text):
            code(.thumbnailFile)
            setLayout(layout)
            for (key, tag) in Self.thumbnailTextTags {
                if let value = text[key] { fields[tag] = .text(value) }
            }
        case .date(let value):
            code(.date)
            switch value {
            case .taken(let date)?: set(.date, .int(date))
            case .noDate?: set(.date, .text("none"))
            case nil: break
            }
        case .dates(let values, let cutShort, let cameras):
            code(.dates)
            if cameras.contains(where: { !$0.isEmpty }) {
                set(.cameras, .text(cameras.map { Self.cameraLine($0) }.joined(separator: "\n")))
            }
            set(.dates, .ints(values.map { value in
                switch value {
                case .taken(let date)?: date
                case .noDate?: Self.noDate
                case nil: Self.unreadable
                }
            }))
            if !cutShort.isEmpty { set(.datesCutShort, .ints(cutShort.map(Int64.init))) }
        case .properties(let details):
            code(.properties)
            set(.width, details.dimensions.map { .int(Int64($0.width)) })
            set(.height, details.dimensions.map { .int(Int64($0.height)) })
            set(.dateTaken, details.dateTaken.map { .int($0) })
            set(.dateOffset, details.dateTakenOffset.map { .int(Int64($0)) })
            set(.camera, details.camera.map { .text($0) })
            set(.lens, details.lens.map { .text($0) })
            set(.exposure, details.exposureTime.map { .double($0) })
            set(.fNumber, details.fNumber.map { .double($0) })
            set(.iso, details.iso.map { .int(Int64($0)) })
            set(.focal, details.focalLength.map { .double($0) })
            set(.focal35, details.focalLength35mm.map { .int(Int64($0)) })
            set(.latitude, details.latitude.map { .double($0) })
            set(.longitude, details.longitude.map { .double($0) })
        case .failure(let failure):
            code(.failure)
            set(.failureKind, .int(Int64(Self.failureKinds.firstIndex(of: failure.kind)!)))
            set(.reason, .text(failure.reason))
        case .probe(let report):
            code(.probe)
            set(.report, .text(report))
        case .webList(let byteCount):
            code(.webList)
            set(.listBytes, .int(Int64(byteCount)))
        case .exifBlock(let byteCount):
            code(.exifBlock)
            set(.exifBytes, .int(Int64(byteCount)))
        case .orientationEdit(let found, let segment, let byteCount):
            code(.orientationEdit)
            set(.orientationFound, .int(Int64(found)))
            set(.segmentStart, .int(Int64(segment.lowerBound)))
            set(.segmentEnd, .int(Int64(segment.upperBound)))
            set(.exifBytes, .int(Int64(byteCount)))
        case .marks(let marks):
            code(.marks)
            set(.rating, .int(Int64(marks.rating)))
            set(.favourite, .int(marks.favourite ? 1 : 0))
            set(.tags, .text(marks.tags.joined(separator: "\n")))
            if !marks.places.isEmpty { set(.places, .text(marks.places.lines)) }
        case .sidecar(let byteCount):
            code(.sidecar)
            set(.sidecarBytes, .int(Int64(byteCount)))
        case .motionMovie(let movie):
            code(.motionMovie)
            if let movie { set(.motionMovie, .ints([movie.offset, movie.length])) }
        case .liveIdentifiers(let identifiers):
            code(.liveIdentifiers)
            set(.liveIdentifiers, .text(identifiers.map { $0 ?? "" }.joined(separator: "\n")))
        }
        return DecoderMessage(kind: .reply, fields: fields)
    }

    /// The reply a message carries, or why it carries none. Values are checked for range
    /// here; pixel layouts again against the memory they come with (`PixelLayout.check`).
    public init(_ message: DecoderMessage) throws(DecoderMessage.Malformed) {
        guard message.kind == .reply else { throw .init(reason: "not a reply") }
        guard let id = message.int(Tag.id.rawValue) else { throw .init(reason: "reply without an id") }
        self.id = UInt64(bitPattern: id)
        func layout() throws(DecoderMessage.Malformed) -> PixelLayout {
            var layout = try frameLayout()
            layout.endMissing = (message.int(Tag.endMissing.rawValue) ?? 0) == 1
            if message.int(Tag.videoDuration.rawValue) != nil {
                layout.videoDuration = Int(try message.int(Tag.videoDuration.rawValue, in: 0...(Int64(1) << 40)))
            }
            if message.int(Tag.videoTurns.rawValue) != nil {
                layout.videoTurns = Int(try message.int(Tag.videoTurns.rawValue, in: 0...3))
            }
            if let movie = message.ints(Tag.motionMovie.rawValue) {
                guard movie.count == 2, movie[0] >= 0, movie[1] > 0, movie[0] <= Int64.max - movie[1] else {
                    throw .init(reason: "bad motion movie")
                }
                layout.motionMovie = EmbeddedMovie(offset: movie[0], length: movie[1])
            }
            return layout
        }
        func frameLayout() throws(DecoderMessage.Malformed) -> PixelLayout {
            let edge = Int64(PixelLayout.maxEdge)
            guard let numbers = message.ints(Tag.frames.rawValue), !numbers.isEmpty, numbers.count % 5 == 0,
                  numbers.allSatisfy({ (0...Int64(Int32.max) * 8).contains($0) }) else {
                throw .init(reason: "bad frame list")
            }
            let frames = stride(from: 0, to: numbers.count, by: 5).map { i in
                PixelLayout.Frame(offset: Int(numbers[i]), size: PixelSize(width: Int(numbers[i + 1]), height: Int(numbers[i + 2])),
                                  stride: Int(numbers[i + 3]), duration: Int(numbers[i + 4]))
            }
            return PixelLayout(
                frames: frames,
                hasAlpha: try message.int(Tag.hasAlpha.rawValue, in: 0...1) == 1,
                sourceSize: PixelSize(width: try message.int(Tag.sourceWidth.rawValue, in: 1...edge),
                                      height: try message.int(Tag.sourceHeight.rawValue, in: 1...edge)),
                format: message.text(Tag.format.rawValue) ?? "unknown",
                loops: (message.int(Tag.loops.rawValue) ?? 1) != 0)
        }
        switch OutcomeCode(rawValue: message.int(Tag.outcome.rawValue) ?? 0) {
        case .pixels:
            outcome = .pixels(try layout())
        case .thumbnailFile:
            let layout = try layout()
            guard layout.frames.count == 1 else { throw .init(reason: "a thumbnail of \(layout.frames.count) frames") }
            var text: [String: String] = [:]
            for (key, tag) in Self.thumbnailTextTags {
                if let value = message.text(tag) { text[key] = value }
            }
            outcome = .thumbnailFile(layout, text: text)
        case .date:
            if let date = message.int(Tag.date.rawValue) {
                outcome = .date(.taken(date))
            } else if message.text(Tag.date.rawValue) == "none" {
                outcome = .date(.noDate)
            } else {
                outcome = .date(nil)
            }
        case .dates:
            guard let numbers = message.ints(Tag.dates.rawValue) else { throw .init(reason: "dates without a list") }
            // Indices of the list, in order, each once: a decoder's nonsense is refused.
            let cutShort = message.ints(Tag.datesCutShort.rawValue) ?? []
            guard zip(cutShort, cutShort.dropFirst()).allSatisfy({ $0 < $1 }), cutShort.allSatisfy({ (0..<Int64(numbers.count)).contains($0) }) else {
                throw .init(reason: "bad list of files cut short")
            }
            var cameras: [String] = []
            if let lines = message.text(Tag.cameras.rawValue) {
                cameras = lines.split(separator: "\n", omittingEmptySubsequences: false).map { CameraNames.shared(String($0)) }
                guard cameras.count == numbers.count else { throw .init(reason: "\(cameras.count) cameras for \(numbers.count) files") }
            }
            outcome = .dates(numbers.map { number in
                switch number {
                case Self.noDate: .noDate
                case Self.unreadable: nil
                default: .taken(number)
                }
            }, cutShort: cutShort.map { Int($0) }, cameras: cameras)
        case .properties:
            var details = PhotoDetails(uri: "", name: "")
            if let width = message.int(Tag.width.rawValue), let height = message.int(Tag.height.rawValue),
               (1...1 << 31).contains(width), (1...1 << 31).contains(height) {
                details.dimensions = PixelSize(width: Int(width), height: Int(height))
            }
            details.dateTaken = message.int(Tag.dateTaken.rawValue)
            // A range, not abs(): abs(Int64.min) traps, and the value comes from a decoder process.
            details.dateTakenOffset = message.int(Tag.dateOffset.rawValue).flatMap { (-86_400...86_400).contains($0) ? Int($0) : nil }
            details.camera = message.text(Tag.camera.rawValue)
            details.lens = message.text(Tag.lens.rawValue)
            details.exposureTime = message.double(Tag.exposure.rawValue).flatMap(Self.finite)
            details.fNumber = message.double(Tag.fNumber.rawValue).flatMap(Self.finite)
            details.iso = message.int(Tag.iso.rawValue).flatMap { (1...Int64(Int32.max)).contains($0) ? Int($0) : nil }
            details.focalLength = message.double(Tag.focal.rawValue).flatMap(Self.finite)
            details.focalLength35mm = message.int(Tag.focal35.rawValue).flatMap { (1...100_000).contains($0) ? Int($0) : nil }
            details.latitude = message.double(Tag.latitude.rawValue).flatMap { abs($0) <= 90 ? $0 : nil }
            details.longitude = message.double(Tag.longitude.rawValue).flatMap { abs($0) <= 180 ? $0 : nil }
            outcome = .properties(details)
        case .failure:
            let kind = Self.failureKinds[try message.int(Tag.failureKind.rawValue, in: 0...Int64(Self.failureKinds.count - 1))]
            outcome = .failure(DecodeFailure(kind, message.text(Tag.reason.rawValue) ?? "The image could not be decoded."))
        case .probe:
            outcome = .probe(message.text(Tag.report.rawValue) ?? "")
        case .webList:
            outcome = .webList(byteCount: try message.int(Tag.listBytes.rawValue, in: 1...Int64(WebPhotoList.maxEncodedBytes)))
        case .exifBlock:
            outcome = .exifBlock(byteCount: try message.int(Tag.exifBytes.rawValue, in: 1...0xFFFF))
        case .orientationEdit:
            // The segment lies among the headers: within the first megabyte, at most 64 KiB long.
            let start = try message.int(Tag.segmentStart.rawValue, in: 2...(1 << 20))
            let end = try message.int(Tag.segmentEnd.rawValue, in: Int64(start)...Int64(start + 0xFFFF + 2))
            outcome = .orientationEdit(found: try message.int(Tag.orientationFound.rawValue, in: 1...8), segment: start..<end,
                                       byteCount: try message.int(Tag.exifBytes.rawValue, in: 0...0xFFFF))
        case .marks:
            outcome = .marks(PhotoMarks(favourite: try message.int(Tag.favourite.rawValue, in: 0...1) == 1,
                                        rating: try message.int(Tag.rating.rawValue, in: 0...5),
                                        tags: (message.text(Tag.tags.rawValue) ?? "").split(separator: "\n").map(String.init),
                                        places: PlaceNames(lines: message.text(Tag.places.rawValue) ?? "")))
        case .sidecar:
            outcome = .sidecar(byteCount: try message.int(Tag.sidecarBytes.rawValue, in: 1...(8 << 20)))
        case .motionMovie:
            if let movie = message.ints(Tag.motionMovie.rawValue) {
                guard movie.count == 2, movie[0] >= 0, movie[1] > 0 else { throw .init(reason: "a movie's place of \(movie.count) numbers") }
                outcome = .motionMovie(EmbeddedMovie(offset: movie[0], length: movie[1]))
            } else {
                outcome = .motionMovie(nil)
            }
        case .liveIdentifiers:
            guard let lines = message.text(Tag.liveIdentifiers.rawValue) else { throw .init(reason: "identifiers without a list") }
            // Each one checked again: the browser takes only what looks like an identifier.
            outcome = .liveIdentifiers(lines.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.isEmpty ? nil : LivePhotoIdentifier.normalized(String(line))
            })
        case nil:
            throw .init(reason: "unknown outcome")
        }
    }

    /// A camera's name as one line of a `dates` reply: no line breaks, at most 60 bytes (64
    /// files' names fit a message's text).
    static func cameraLine(_ camera: String) -> String {
        var line = camera.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        while line.utf8.count > 60 { line.removeLast() }
        return line
    }

    private static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
}
