/// What the browser asks a decoder process to do with the file descriptor sent beside the
/// request. The process never opens a path: it reads the descriptor it was given.
public struct DecoderRequest: Sendable, Equatable {
    public enum Operation: Int64, Sendable {
        /// A still image shrunk to fit `fitting` (`DecodedImage`).
        case still = 1
        /// The image as the viewer shows it, in one reply: one frame for a still image, the
        /// frames (at least two) of an animation, at most `maxFrames` and `maxBytes` of them.
        case picture = 2
        /// The date the photo was taken (EXIF).
        case date = 3
        /// What the Properties panel shows from the file's content (EXIF, frame header).
        case properties = 4
        /// Test mode only: tries to open `probePath` and to connect to `probePort` on the
        /// loopback address, and reports what happened (confinement checks).
        case probe = 5
        /// The dates of a batch of files, one descriptor each (`dates`).
        case dates = 6
        /// A thumbnail file of the freedesktop cache, which any program may have written: its
        /// pixels shrunk to fit `fitting`, and its text keys (`thumbnailFile`).
        case thumbnailFile = 7
        /// A web album's list (JSON, a web page, a `text/uri-list`), whose addresses are
        /// relative to `baseURL` and whose type the server gave as `contentType`: the photos
        /// it names, as a `WebPhotoList` in the memory sent beside the reply (`webList`).
        case webList = 8
        /// The preview embedded in the photo's EXIF, shrunk to fit `fitting` and turned as
        /// the photo is (`DecodedImage`); the descriptor may hold only the photo's first bytes.
        case embeddedPreview = 9
        /// The EXIF block a marked-up copy of the photo keeps: its own, rewritten for a copy of
        /// `fitting`'s size (orientation 1, those dimensions, no embedded preview), as bytes in
        /// the memory sent beside the reply (`exifBlock`).
        case savedExif = 10
        /// A JPEG's EXIF orientation changed, for saving a rotation (`OrientationEdit`): the
        /// orientation found turned by `quarterTurns` clockwise, or set to `orientation` when
        /// given; both absent, only what the file holds (checking a file written). Answered
        /// with where the EXIF segment lies and the new payload in the memory beside the
        /// reply (`orientationEdit`).
        case orientation = 11
        /// The marks (favourite, rating, tags) in an XMP sidecar, or embedded in a photo (its
        /// XMP packet, else its IPTC keywords) (`marks`).
        case marks = 12
        /// The XMP sidecar sent merged with `marks`: its rating, tags and favourite replaced,
        /// everything else kept, as bytes in the memory beside the reply (`sidecar`).
        case mergedSidecar = 13
        /// A rectangle of a JPEG (`region`, upright, in the photo reduced by `2^reduction`)
        /// decoded alone, as one frame (`DecodedImage`, its source size the photo's upright
        /// size): a viewer's tile. No more than the region is decoded, and at most `maxPixels`
        /// of it; a photo whose header declares more than `maxRegionSource` pixels is refused.
        case region = 14
        /// The identifiers a Live Photo's still and movie share (`LivePhotoIdentifier`), of a
        /// batch of files, one descriptor each (`liveIdentifiers`).
        case liveIdentifiers = 15
        /// Where a motion photo's movie lies in its file (`motionMovie`), for a thumbnail
        /// another program made.
        case motionMovie = 16
    }

    /// Matches the reply to the request.
    public var id: UInt64
    public var operation: Operation
    public var fitting: PixelSize
    /// The most pixels the decode may produce before shrinking.
    public var maxPixels: Int
    /// The most frames and bytes an animation may keep.
    public var maxFrames: Int
    public var maxBytes: Int
    /// The file's name, for the type its extension suggests (the content decides).
    public var name: String?
    public var probePath: String?
    public var probePort: Int?
    /// A web list's own address, and the type its server gave it.
    public var baseURL: String?
    public var contentType: String?
    /// An orientation request's change: clockwise quarter turns, or the value to set.
    public var quarterTurns: Int?
    public var orientation: Int?
    /// A merged sidecar's marks.
    public var marks: PhotoMarks?
    /// A region request's rectangle.
    public var region: ImageRegion?

    /// The most pixels a photo decoded a region at a time may declare (a gigapixel): past
    /// that, a file is taken for a decompression bomb.
    public static let maxRegionSource = 1 << 30

    public init(id: UInt64, operation: Operation, fitting: PixelSize = PixelSize(width: 1, height: 1),
                maxPixels: Int = 100_000_000, maxFrames: Int = 300, maxBytes: Int = 128 << 20,
                name: String? = nil, probePath: String? = nil, probePort: Int? = nil,
                baseURL: String? = nil, contentType: String? = nil, quarterTurns: Int? = nil, orientation: Int? = nil,
                marks: PhotoMarks? = nil, region: ImageRegion? = nil) {
        self.id = id
        self.operation = operation
        self.fitting = fitting
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxBytes = maxBytes
        self.name = name
        self.probePath = probePath
        self.probePort = probePort
        self.baseURL = baseURL
        self.contentType = contentType
        self.quarterTurns = quarterTurns
        self.orientation = orientation
        self.marks = marks
        self.region = region
    }

    enum Tag: UInt8 {
        case id = 1, operation, width, height, maxPixels, maxFrames, maxBytes, name, probePath, probePort, baseURL, contentType
        case quarterTurns, orientation
        case rating, favourite, tags
        case regionX, regionY, regionWidth, regionHeight, reduction
    }

    /// Edges and pixel counts a request may carry.
    public static let maxEdge: Int64 = 1 << 20
    public static let maxPixelLimit: Int64 = 1 << 32

    public var message: DecoderMessage {
        var fields: [UInt8: DecoderMessage.Value] = [
            Tag.id.rawValue: .int(Int64(bitPattern: id)),
            Tag.operation.rawValue: .int(operation.rawValue),
            Tag.width.rawValue: .int(Int64(fitting.width)),
            Tag.height.rawValue: .int(Int64(fitting.height)),
            Tag.maxPixels.rawValue: .int(Int64(maxPixels)),
            Tag.maxFrames.rawValue: .int(Int64(maxFrames)),
            Tag.maxBytes.rawValue: .int(Int64(maxBytes)),
        ]
        if let name { fields[Tag.name.rawValue] = .text(name) }
        if let probePath { fields[Tag.probePath.rawValue] = .text(probePath) }
        if let probePort { fields[Tag.probePort.rawValue] = .int(Int64(probePort)) }
        if let baseURL { fields[Tag.baseURL.rawValue] = .text(baseURL) }
        if let contentType { fields[Tag.contentType.rawValue] = .text(contentType) }
        if let quarterTurns { fields[Tag.quarterTurns.rawValue] = .int(Int64(quarterTurns)) }
        if let orientation { fields[Tag.orientation.rawValue] = .int(Int64(orientation)) }
        if let marks {
            fields[Tag.rating.rawValue] = .int(Int64(marks.rating))
            fields[Tag.favourite.rawValue] = .int(marks.favourite ? 1 : 0)
            fields[Tag.tags.rawValue] = .text(marks.tags.joined(separator: "\n"))
        }
        if let region {
            fields[Tag.regionX.rawValue] = .int(Int64(region.x))
            fields[Tag.regionY.rawValue] = .int(Int64(region.y))
            fields[Tag.regionWidth.rawValue] = .int(Int64(region.width))
            fields[Tag.regionHeight.rawValue] = .int(Int64(region.height))
            fields[Tag.reduction.rawValue] = .int(Int64(region.reduction))
        }
        return DecoderMessage(kind: .request, fields: fields)
    }

    /// The request a message carries, or why it carries none.
    public init(_ message: DecoderMessage) throws(DecoderMessage.Malformed) {
        guard message.kind == .request else { throw .init(reason: "not a request") }
        guard let id = message.int(Tag.id.rawValue) else { throw .init(reason: "request without an id") }
        let rawOperation = try message.int(Tag.operation.rawValue, in: 1...16)
        self.id = UInt64(bitPattern: id)
        guard let operation = Operation(rawValue: Int64(rawOperation)) else { throw .init(reason: "unknown operation \(rawOperation)") }
        self.operation = operation
        fitting = PixelSize(width: try message.int(Tag.width.rawValue, in: 1...Self.maxEdge),
                            height: try message.int(Tag.height.rawValue, in: 1...Self.maxEdge))
        maxPixels = try message.int(Tag.maxPixels.rawValue, in: 1...Self.maxPixelLimit)
        maxFrames = try message.int(Tag.maxFrames.rawValue, in: 1...Int64(PixelLayout.maxFrames))
        maxBytes = try message.int(Tag.maxBytes.rawValue, in: 1...Self.maxPixelLimit * 4)
        name = message.text(Tag.name.rawValue)
        probePath = message.text(Tag.probePath.rawValue)
        probePort = message.int(Tag.probePort.rawValue).flatMap { (1...65535).contains($0) ? Int($0) : nil }
        baseURL = message.text(Tag.baseURL.rawValue)
        contentType = message.text(Tag.contentType.rawValue)
        quarterTurns = message.int(Tag.quarterTurns.rawValue) == nil ? nil : try message.int(Tag.quarterTurns.rawValue, in: -3...3)
        orientation = message.int(Tag.orientation.rawValue) == nil ? nil : try message.int(Tag.orientation.rawValue, in: 1...8)
        marks = message.int(Tag.rating.rawValue) == nil ? nil : PhotoMarks(
            favourite: try message.int(Tag.favourite.rawValue, in: 0...1) == 1,
            rating: try message.int(Tag.rating.rawValue, in: 0...5),
            tags: (message.text(Tag.tags.rawValue) ?? "").split(separator: "\n").map(String.init))
        region = operation != .region ? nil : ImageRegion(
            x: try message.int(Tag.regionX.rawValue, in: 0...Self.maxEdge), y: try message.int(Tag.regionY.rawValue, in: 0...Self.maxEdge),
            width: try message.int(Tag.regionWidth.rawValue, in: 1...Self.maxEdge),
            height: try message.int(Tag.regionHeight.rawValue, in: 1...Self.maxEdge),
            reduction: try message.int(Tag.reduction.rawValue, in: 0...Int64(ImageRegion.maxReduction)))
    }
}

/// What a decoder process says it put itself under, once, when it starts.
public struct DecoderReady: Sendable, Equatable {
    /// The process id as the process itself sees it (1 inside a PID namespace).
    public var pid: Int
    /// The confinements that hold, in words ("Landlock (ABI 4)", "seccomp filter", …).
    public var confinements: [String]
    /// The ones that could not be set up, with the reason.
    public var missing: [String]

    public init(pid: Int, confinements: [String], missing: [String]) {
        self.pid = pid
        self.confinements = confinements
        self.missing = missing
    }

    enum Tag: UInt8 { case pid = 1, confinements, missing }

    public var message: DecoderMessage {
        DecoderMessage(kind: .ready, fields: [
            Tag.pid.rawValue: .int(Int64(pid)),
            Tag.confinements.rawValue: .text(confinements.joined(separator: "\n")),
            Tag.missing.rawValue: .text(missing.joined(separator: "\n")),
        ])
    }

    public init(_ message: DecoderMessage) throws(DecoderMessage.Malformed) {
        guard message.kind == .ready else { throw .init(reason: "not a ready message") }
        pid = try message.int(Tag.pid.rawValue, in: 0...Int64(Int32.max))
        confinements = (message.text(Tag.confinements.rawValue) ?? "").split(separator: "\n").map(String.init)
        missing = (message.text(Tag.missing.rawValue) ?? "").split(separator: "\n").map(String.init)
    }
}

/// Tells a decoder process to stop the request it is running.
public struct DecoderCancel: Sendable, Equatable {
    public var id: UInt64
    public init(id: UInt64) { self.id = id }

    public var message: DecoderMessage {
        DecoderMessage(kind: .cancel, fields: [1: .int(Int64(bitPattern: id))])
    }

    public init(_ message: DecoderMessage) throws(DecoderMessage.Malformed) {
        guard message.kind == .cancel, let id = message.int(1) else { throw .init(reason: "not a cancel message") }
        self.id = UInt64(bitPattern: id)
    }
}
