import CGdkPixbuf
import Foundation
import PhotoCore

/// Why the thumbnail cache could not be written, in words for a person.
public struct ThumbnailCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The freedesktop thumbnail cache on disk, shared with GNOME's file manager and every other
/// program following the Thumbnail Managing Standard: PNG thumbnails named by the MD5 of
/// the original's URI, carrying the URI and modification time they were made from.
///
/// Other programs write the cache too, so its files are bytes from outside: the store opens
/// them (without blocking, regular files of a plausible size only) and hands the descriptor
/// to its `reader`, a decoder process in the app (`IsolatedDecoder`), which sends back the
/// pixels and the text keys; the store then checks a thumbnail before trusting it
/// (`ThumbnailAttributes.isValid`). Writes are atomic (a private temporary file in the same
/// folder, renamed over the final name), with folders made 0700 and files 0600. Blocking
/// file I/O: call from worker threads. Stateless apart from its layout and reader, so one
/// store can serve every thread.
public struct ThumbnailStore: Sendable {
    public let layout: ThumbnailCacheLayout
    /// Where the cache's files are parsed.
    public let reader: any ThumbnailFileReading

    /// The zlib level thumbnails are written at (gdk-pixbuf's PNG `compression` option).
    ///
    /// Chosen by measurement, not by default. The 72 camera JPEGs of
    /// /work/shared/corpus/cameras, decoded to `large` (256 px, mean 47 kpx) with gdk-pixbuf
    /// then encoded with gdk-pixbuf's PNG writer, one thread, best of 5 runs:
    ///
    /// | level | encode ms/thumb | read back ms/thumb | KiB/thumb |
    /// | ----- | --------------- | ------------------ | --------- |
    /// | 0     | 1.57            | 0.84               | 139.4     |
    /// | 1     | 5.10            | 2.43               | 73.8      |
    /// | 3     | 6.59            | 2.40               | 71.8      |
    /// | 6 (gdk-pixbuf's default) | 18.33 | 2.45     | 68.6      |
    /// | 9     | 47.98           | 1.78               | 68.0      |
    ///
    /// Decoding the JPEG itself at that size took 4.67 ms, so the default level would make
    /// the cache write cost four times the decode. Level 1 writes 3.6 times faster than 6 for
    /// files only 8% bigger, but reading back costs the same 2.4 ms as any compressed level:
    /// zlib's inflate and libpng's unfiltering are most of it (perf). Level 0 writes 3 times
    /// faster than level 1 and reads back 3 times faster (0.84 ms), and that decides it: a
    /// folder seen before must fill the grid from the cache at least ten times faster than
    /// decoding it (`gphotobrowse-bench thumbnails`, docs/benchmarks.md: 568 camera JPEGs
    /// read back at 6.5 times the cold rate with level 1, 11.5 times with level 0). The price
    /// is disk: 139 KiB for a 256 px thumbnail instead of 74 (about 3 MiB at 1024 px), and
    /// 13 GiB rather than 7 for 100,000 photos. At `normal` (128 px) the figures keep their
    /// ratios (level 0: 0.36 ms and 35 KiB; 1: 1.06 ms and 21 KiB; 6: 3.23 ms and 20 KiB).
    ///
    /// Through this pipeline (`gphotobrowse-bench make-thumbnails --size large` over the same
    /// 72 files, debug build, one thread, whole process, best of 3): level 6 took 1.07 s
    /// (4.1 MiB written), level 1 0.61 s (4.3 MiB), level 0 0.50 s (7.7 MiB); reading them all
    /// back from the cache took 0.11 s, 0.12 s and 0.05 s.
    public static let compressionLevel = 0

    /// `reader` parses the cache's files: this process by default (`PixbufDecoder`); the app
    /// and the tools pass its decoder processes (`IsolatedDecoder`, through
    /// `ThumbnailProvider(cacheHome:decoder:)`).
    public init(cacheHome: String = ThumbnailCacheLayout.defaultCacheHome(), reader: any ThumbnailFileReading = PixbufDecoder()) {
        self.init(layout: ThumbnailCacheLayout(cacheHome: cacheHome), reader: reader)
    }

    public init(layout: ThumbnailCacheLayout, reader: any ThumbnailFileReading = PixbufDecoder()) {
        self.layout = layout
        self.reader = reader
    }

    // MARK: - Thumbnails

    /// The cached thumbnail of `uri` at `size`, if there is one made from the file as it is
    /// now (same URI, same modification time in whole seconds, same size when recorded).
    /// When that size is missing or stale, a valid larger one is used, shrunk to fit
    /// (`allowLarger`). A thumbnail larger than `size` allows is shrunk too.
    public func load(uri: String, modified: Int64, fileSize: Int64? = nil, size: ThumbnailSize, allowLarger: Bool = true,
                     cancellation: CancellationFlag) -> DecodedImage? {
        let box = PixelSize(width: size.edge, height: size.edge)
        for candidate in [size] + (allowLarger ? size.larger : []) {
            guard let (file, attributes) = read(path: layout.path(forURI: uri, size: candidate), fitting: box, cancellation: cancellation),
                  attributes.isValid(forURI: uri, modified: modified, fileSize: fileSize) else { continue }
            var image = Self.image(from: file, attributes: attributes)
            // Another program's thumbnail (Files', gThumb's) says nothing of a motion photo's
            // movie: the photo says, read in a decoder process. This app's says it, or that
            // there is none.
            if image.motionMovie == nil, !(attributes.software?.hasPrefix(AppInfo.name + " ") ?? false), Self.mayMove(uri) {
                image.motionMovie = reader.motionMovie(uri: uri, cancellation: cancellation)
            }
            return image
        }
        return nil
    }

    /// Saves `image` as the thumbnail of `uri` at `size` (shrunk to fit first if larger),
    /// recording the URI, the modification time, the file's size and the original image's
    /// size. Refuses files inside the thumbnail cache.
    public func save(image: DecodedImage, uri: String, modified: Int64, fileSize: Int64?, size: ThumbnailSize) throws(ThumbnailCacheError) {
        guard !isInsideCache(uri: uri) else {
            throw ThumbnailCacheError(tr("Thumbnails are not made for files inside the thumbnail cache."))
        }
        var attributes = ThumbnailAttributes(
            uri: uri, modified: modified, fileSize: fileSize, imageSize: image.sourceSize,
            software: ThumbnailAttributes.thisSoftware, mimeType: PixbufImage.formats.mimeByName[image.format]
        )
        attributes.movieLength = image.videoDuration
        attributes.motionMovie = image.motionMovie
        let box = PixelSize(width: size.edge, height: size.edge)
        let written = PixbufImage.withPixbuf(over: image) { pixbuf -> Result<Void, ThumbnailCacheError> in
            let shrunk = PixbufImage.shrunk(pixbuf, toFit: box)
            defer { unref(shrunk) }
            return write(shrunk ?? pixbuf, attributes: attributes,
                         to: layout.path(forURI: uri, size: size), in: layout.directory(for: size))
        }
        guard let written else { throw ThumbnailCacheError(tr("The image’s pixel layout cannot be saved.")) }
        try written.get()
    }

    // MARK: - Failures

    /// Records that `uri`, as modified at `modified`, could not be made a thumbnail of, as
    /// GNOME does: a 1×1 transparent PNG carrying `Thumb::URI` and `Thumb::MTime`, in this
    /// program's own failure folder; with `Thumb::Size` when `fileSize` is known (a file
    /// listed while it was being written fails, and is whole within the same second, which is
    /// all `Thumb::MTime` tells). The reason is kept too, to tell the person later.
    public func recordFailure(uri: String, modified: Int64, fileSize: Int64? = nil, failure: DecodeFailure? = nil) throws(ThumbnailCacheError) {
        guard !isInsideCache(uri: uri) else {
            throw ThumbnailCacheError(tr("Thumbnails are not made for files inside the thumbnail cache."))
        }
        var attributes = ThumbnailAttributes(uri: uri, modified: modified, fileSize: fileSize, software: ThumbnailAttributes.thisSoftware)
        if let failure {
            attributes.failureKind = Self.name(of: failure.kind)
            attributes.failureReason = failure.reason
        }
        guard let pixel = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 1, 1) else {
            throw ThumbnailCacheError(tr("Out of memory."))
        }
        defer { unref(pixel) }
        gdk_pixbuf_fill(pixel, 0)
        try write(pixel, attributes: attributes, to: layout.failurePath(forURI: uri), in: layout.failureDirectory).get()
    }

    /// Whether a failure was recorded for `uri` as modified at `modified` (and `fileSize`
    /// long, when both are known). A file modified since is tried again.
    public func hasFailed(uri: String, modified: Int64, fileSize: Int64? = nil, cancellation: CancellationFlag) -> Bool {
        recordedFailure(uri: uri, modified: modified, fileSize: fileSize, cancellation: cancellation) != nil
    }

    /// The failure recorded for `uri` as modified at `modified` (and `fileSize` long, when
    /// both are known), with the reason recorded then (a generic one for entries without it).
    public func recordedFailure(uri: String, modified: Int64, fileSize: Int64? = nil, cancellation: CancellationFlag) -> DecodeFailure? {
        guard let (_, attributes) = read(path: layout.failurePath(forURI: uri), fitting: PixelSize(width: 1, height: 1), cancellation: cancellation),
              attributes.isValid(forURI: uri, modified: modified, fileSize: fileSize) else { return nil }
        return DecodeFailure(
            attributes.failureKind.flatMap(Self.kind(named:)) ?? .corrupt,
            attributes.failureReason ?? tr("The file could not be read as an image.")
        )
    }

    // MARK: - The cache's own files

    /// Whether `uri` is a file inside the thumbnail cache: by its path as written, or once
    /// symbolic links are resolved (a link into the cache, a cache reached through a link).
    public func isInsideCache(uri: String) -> Bool {
        if layout.contains(uri: uri) { return true }
        guard var path = ThumbnailCacheLayout.localPath(ofURI: uri), let root = Self.resolved(Array(layout.root.utf8)) else {
            return false  // not a local file, or no cache yet: nothing can be inside it
        }
        var suffix: [UInt8] = []
        var target = Self.resolved(path)
        if target == nil, let slash = path.lastIndex(of: UInt8(ascii: "/")) {
            // The file itself may be missing: resolve its folder.
            suffix = Array(path[slash...])
            path = Array(path[..<slash])
            target = Self.resolved(path.isEmpty ? [UInt8(ascii: "/")] : path)
        }
        guard let target else { return false }
        let full = target + suffix
        return full == root || full.starts(with: root + [UInt8(ascii: "/")])
    }

    // MARK: - Reading PNG files

    /// Reads a cache file with the reader: its pixels shrunk to fit `box` and its text keys;
    /// nil when the file is missing, not a regular file, implausibly large, or not a whole
    /// PNG. The file is opened here without blocking; its bytes are the reader's to parse.
    private func read(path: String, fitting box: PixelSize, cancellation: CancellationFlag) -> (ThumbnailFile, ThumbnailAttributes)? {
        guard let fd = ThumbnailFile.open(path: path) else { return nil }
        defer { close(fd) }
        guard let file = reader.readThumbnailFile(descriptor: fd, fitting: box, cancellation: cancellation) else { return nil }
        return (file, ThumbnailAttributes { file.text[$0] })
    }

    /// Whether the file at `uri` may be a motion photo, by its name: a local JPEG or HEIF.
    static func mayMove(_ uri: String) -> Bool {
        guard uri.hasPrefix("file://"), let name = uri.split(separator: "/").last else { return false }
        return PairedFiles.role(ofName: String(name))?.role == .jpeg
    }

    /// A cached thumbnail's pixels as a thumbnail of the original: with the original's size
    /// and type where the thumbnail records them.
    private static func image(from file: ThumbnailFile, attributes: ThumbnailAttributes) -> DecodedImage {
        let image = file.image
        let width = image.size.width, height = image.size.height
        var source = attributes.imageSize ?? image.sourceSize
        // Some thumbnailers record the size before EXIF orientation: turn it like the pixels.
        if (width > height) != (source.width > source.height) && width != height && source.width != source.height {
            source = PixelSize(width: source.height, height: source.width)
        }
        let format = attributes.mimeType.flatMap { PixbufImage.formats.nameByMime[$0.lowercased()] } ?? "unknown"
        var cached = DecodedImage(size: image.size, stride: image.stride, hasAlpha: image.hasAlpha, pixels: image.pixels,
                                  sourceSize: source, format: format)
        cached.videoDuration = attributes.movieLength
        cached.motionMovie = attributes.motionMovie
        return cached
    }

    // MARK: - Writing PNG files

    /// Encodes `pixbuf` as PNG with `attributes` as text chunks and puts it at `path`
    /// atomically: written to a temporary file (mode 0600) in the same folder, then renamed.
    /// Readers see the old file or the new one, never a partial one; concurrent writers of
    /// the same thumbnail each rename a whole file, and the last one stays.
    private func write(_ pixbuf: OpaquePointer, attributes: ThumbnailAttributes, to path: String, in directory: String) -> Result<Void, ThumbnailCacheError> {
        if let failure = Self.makeDirectory(directory) { return .failure(failure) }

        let options = attributes.entries.map { ("tEXt::" + $0.key, $0.value) } + [("compression", String(Self.compressionLevel))]
        let keys = options.map { strdup($0.0) } + [nil]
        let values = options.map { strdup($0.1) } + [nil]
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let encoded = keys.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { values in
                gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "png",
                                           UnsafeMutablePointer(mutating: keys.baseAddress),
                                           UnsafeMutablePointer(mutating: values.baseAddress), &error)
            }
        }
        defer { g_free(buffer) }
        guard encoded != 0, let buffer else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(ThumbnailCacheError(tr("The thumbnail could not be encoded: %s", message)))
        }

        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { g_mkstemp_full($0.baseAddress!, O_RDWR | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return .failure(Self.systemError("The thumbnail could not be created in \(directory)")) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: ThumbnailCacheError?
        _ = fchmod(fd, 0o600)  // created 0600 minus the umask: exactly 0600 whatever the umask
        var written = 0
        while written < Int(length) {
            let n = Glibc.write(fd, buffer + written, Int(length) - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = Self.systemError("The thumbnail could not be written")
                break
            }
            written += n
        }
        if close(fd) != 0 && failure == nil { failure = Self.systemError("The thumbnail could not be written") }
        if failure == nil && rename(temporary, path) != 0 { failure = Self.systemError("The thumbnail could not be put in place") }
        if let failure {
            unlink(temporary)
            return .failure(failure)
        }
        return .success(())
    }

    /// Creates `directory` and any missing parents with mode 0700 (exactly, whatever the
    /// umask). Folders that exist are left as they are. Nil on success.
    private static func makeDirectory(_ directory: String) -> ThumbnailCacheError? {
        var status = stat()
        if stat(directory, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR { return nil }
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + component
            if mkdir(path, 0o700) == 0 {
                _ = chmod(path, 0o700)
            } else if errno != EEXIST {
                return systemError("The folder \(path) could not be created")
            }
        }
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            return ThumbnailCacheError("\(directory) is not a folder.")
        }
        return nil
    }

    private static func systemError(_ what: String) -> ThumbnailCacheError {
        ThumbnailCacheError("\(what): \(String(cString: strerror(errno))).")
    }

    /// The canonical path of an existing file (symbolic links resolved), or nil.
    private static func resolved(_ path: [UInt8]) -> [UInt8]? {
        let cString = path.map { CChar(bitPattern: $0) } + [0]
        guard let real = realpath(cString, nil) else { return nil }
        defer { free(real) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real)))
    }

    private static func name(of kind: DecodeFailure.Kind) -> String {
        switch kind {
        case .unreadable: "unreadable"
        case .notAnImage: "not-an-image"
        case .corrupt: "corrupt"
        case .tooLarge: "too-large"
        case .cancelled: "cancelled"
        case .unsafe: "unsafe"
        case .timedOut: "timed-out"
        case .cutShort: "cut-short"
        case .unavailable: "unavailable"
        }
    }

    private static func kind(named name: String) -> DecodeFailure.Kind? {
        [DecodeFailure.Kind.unreadable, .notAnImage, .corrupt, .tooLarge, .unsafe].first { self.name(of: $0) == name }
    }
}
