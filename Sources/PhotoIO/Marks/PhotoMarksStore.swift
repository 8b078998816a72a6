import CGdkPixbuf
import Foundation
import Glibc
import PhotoCore

/// Where a photo's marks are kept, and reading and writing them there. Blocking I/O: call on
/// a worker.
///
/// - A photo in a local folder the person may write: its XMP sidecar `NAME.EXT.xmp` beside it,
///   merged into when it exists (in a decoder process: its bytes come from outside), written
///   to a temporary name in the same folder and renamed into place. The photo itself is never
///   written.
/// - Any other photo (on another machine, on the web, in a read-only folder): a sidecar of the
///   app's own, `$XDG_DATA_HOME/gphotobrowse/marks/KEY.xmp` (KEY: the MD5 of the photo's URI,
///   as the thumbnail cache names its files).
///
/// Reading goes `NAME.EXT.xmp`, `NAME.xmp`, the app's own sidecar, then the XMP and IPTC
/// embedded in the photo.
public final class PhotoMarksStore: Sendable {
    public enum Place: Sendable, Equatable {
        /// A sidecar beside the photo, at this path.
        case beside(String)
        /// The app's own sidecar for the photo, at this path.
        case appStore(String)
    }

    public struct Failure: Error, Sendable, Equatable {
        public var message: String
    }

    /// `DATA_HOME/gphotobrowse/marks`.
    public let appFolder: String
    private let decoder: IsolatedDecoder

    public init(dataHome: String = CollectionStore.defaultDataHome, decoder: IsolatedDecoder) {
        appFolder = (dataHome.hasSuffix("/") ? String(dataHome.dropLast()) : dataHome) + "/gphotobrowse/marks"
        self.decoder = decoder
    }

    /// The local path of a `file://` URI, or nil.
    static func localPath(_ uri: String) -> String? {
        guard uri.hasPrefix("file://"), let path = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }

    static func uri(ofPath path: String) -> String {
        guard let uri = g_filename_to_uri(path, nil, nil) else { return "file://" + path }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// The app's own sidecar of a photo.
    public func appSidecarPath(for uri: String) -> String {
        appFolder + "/" + MD5.hex(uri) + ".xmp"
    }

    /// Where the photo's sidecars may be, in the order they are read: beside a local photo,
    /// by the names other apps give them (`SidecarNames`), then the app's own.
    private func sidecarPaths(of uri: String) -> [String] {
        var paths: [String] = []
        if let path = Self.localPath(uri) {
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            paths = SidecarNames.read(for: name).map { folder + "/" + $0 }
        }
        paths.append(appSidecarPath(for: uri))
        return paths
    }

    /// Where a change to the photo's marks goes.
    public func place(for uri: String) -> Place {
        if let path = Self.localPath(uri) {
            let folder = (path as NSString).deletingLastPathComponent
            if access(folder, W_OK) == 0 {
                let sidecar = path + ".xmp"
                if access(sidecar, F_OK) != 0 || access(sidecar, W_OK) == 0 { return .beside(sidecar) }
            }
        }
        return .appStore(appSidecarPath(for: uri))
    }

    /// The marks the photo at `uri` has, read in a decoder process from the first of its
    /// sidecars found, else from the photo.
    public func marks(of uri: String, cancellation: CancellationFlag) -> PhotoMarks {
        if let marks = sidecarMarks(of: uri, cancellation: cancellation) { return marks }
        // A photo elsewhere is not read again for its marks (its bytes would cross the network).
        guard Self.localPath(uri) != nil else { return .none }
        return decoder.marks(uri: uri, cancellation: cancellation) ?? .none
    }

    /// The marks of the first of the photo's sidecars found (read in a decoder process), or
    /// nil when it has none: the photo itself is not read.
    public func sidecarMarks(of uri: String, cancellation: CancellationFlag) -> PhotoMarks? {
        for sidecar in sidecarPaths(of: uri) {
            var status = stat()
            guard stat(sidecar, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            if let marks = decoder.marks(uri: Self.uri(ofPath: sidecar), cancellation: cancellation) { return marks }
        }
        return nil
    }

    /// What the photo's sidecars are now, as one number that changes when any of them is
    /// made, changed or removed (their modification times and sizes): the photo index keeps
    /// marks read while it was the same. 0 when there is none. A look at each, no read.
    public func sidecarStamp(of uri: String) -> Int64 {
        var stamp: UInt64 = 0
        for (n, sidecar) in sidecarPaths(of: uri).enumerated() {
            var status = stat()
            guard stat(sidecar, &status) == 0 else { continue }
            let modified = UInt64(bitPattern: Int64(status.st_mtim.tv_sec) &* 1_000_000 &+ Int64(status.st_mtim.tv_nsec) / 1000)
            stamp = (stamp &* 1_000_003) ^ (modified &+ UInt64(bitPattern: Int64(status.st_size)) &* 31 &+ UInt64(n + 1))
        }
        return Int64(bitPattern: stamp & (UInt64.max >> 1))
    }

    /// Writes `marks` as the photo's, where `place(for:)` says; a sidecar there is merged into.
    @discardableResult
    public func write(_ marks: PhotoMarks, for uri: String, cancellation: CancellationFlag) -> Result<Place, Failure> {
        let place = place(for: uri)
        let path: String
        switch place {
        case .beside(let sidecar): path = sidecar
        case .appStore(let sidecar):
            path = sidecar
            if mkdirParents(appFolder) != 0 {
                return .failure(Failure(message: tr("The folder %s could not be made.", appFolder)))
            }
        }
        var bytes = Array(XMPSidecarText.fresh(marks).utf8)
        var status = stat()
        if stat(path, &status) == 0, status.st_size > 0 {
            switch decoder.mergedSidecar(uri: Self.uri(ofPath: path), marks: marks, cancellation: cancellation) {
            case .success(let merged): bytes = merged
            case .failure(let failure):
                return .failure(Failure(message: tr("The sidecar %s was left as it is: %s", path, failure.reason)))
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        if let code = CollectionFiles.writeAtomically(bytes, to: name, in: folder, mode: 0o666) {
            return .failure(Failure(message: tr("The sidecar %s could not be written: %s", path, String(cString: strerror(code)))))
        }
        return .success(place)
    }

    private func mkdirParents(_ path: String) -> Int32 {
        g_mkdir_with_parents(path, 0o700)
    }
}
