import PhotoCore
@testable import PhotoIO

// The app passes every call the flag of the job it runs in; a test's call runs to its end,
// with a flag nobody cancels.

extension ThumbnailStore {
    func load(uri: String, modified: Int64, fileSize: Int64? = nil, size: ThumbnailSize, allowLarger: Bool = true) -> DecodedImage? {
        load(uri: uri, modified: modified, fileSize: fileSize, size: size, allowLarger: allowLarger, cancellation: CancellationFlag())
    }

    func hasFailed(uri: String, modified: Int64) -> Bool {
        hasFailed(uri: uri, modified: modified, cancellation: CancellationFlag())
    }

    func recordedFailure(uri: String, modified: Int64) -> DecodeFailure? {
        recordedFailure(uri: uri, modified: modified, cancellation: CancellationFlag())
    }
}

extension PhotoMarksStore {
    func marks(of uri: String) -> PhotoMarks { marks(of: uri, cancellation: CancellationFlag()) }

    func sidecarMarks(of uri: String) -> PhotoMarks? { sidecarMarks(of: uri, cancellation: CancellationFlag()) }

    @discardableResult
    func write(_ marks: PhotoMarks, for uri: String) -> Result<Place, Failure> {
        write(marks, for: uri, cancellation: CancellationFlag())
    }
}

extension IsolatedDecoder {
    func savedExif(uri: String, size: PixelSize) -> [UInt8]? { savedExif(uri: uri, size: size, cancellation: CancellationFlag()) }

    func probe(path: String?, port: Int?) -> String? { probe(path: path, port: port, cancellation: CancellationFlag()) }

    func marks(uri: String) -> PhotoMarks? { marks(uri: uri, cancellation: CancellationFlag()) }

    func mergedSidecar(uri: String, marks: PhotoMarks) -> Result<[UInt8], DecodeFailure> {
        mergedSidecar(uri: uri, marks: marks, cancellation: CancellationFlag())
    }
}
