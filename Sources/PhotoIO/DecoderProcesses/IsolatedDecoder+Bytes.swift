import Glibc
import PhotoCore

extension IsolatedDecoder {
    /// The photos the web album's list in the file at `path` (a file of the download cache)
    /// names, read in a decoder process like every byte from the web (`WebListReader`);
    /// addresses are resolved against `baseURL`, and `contentType` is the server's type.
    public func readWebList(path: String, baseURL: String, contentType: String?,
                            cancellation: CancellationFlag) -> Result<WebPhotoList, DecodeFailure> {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            return .failure(DecodeFailure(.unreadable, tr("The list could not be read (%s).", String(cString: strerror(errno)))))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(DecodeFailure(.unreadable, tr("The list could not be read (%s).", "not a file")))
        }
        return readWebList(descriptor: fd, baseURL: baseURL, contentType: contentType, cancellation: cancellation)
    }

    /// As `readWebList(path:…)`, from an open descriptor.
    public func readWebList(descriptor: Int32, baseURL: String, contentType: String?,
                            cancellation: CancellationFlag) -> Result<WebPhotoList, DecodeFailure> {
        guard baseURL.utf8.count <= DecoderMessage.maxTextBytes, (contentType?.utf8.count ?? 0) <= DecoderMessage.maxTextBytes else {
            return .failure(DecodeFailure(.unreadable, tr("The album’s address is too long.")))
        }
        return decoding {
            WebListReader.read(descriptor: descriptor, baseURL: baseURL, contentType: contentType, cancellation: cancellation)
        } isolated: {
            let request = DecoderRequest(id: 0, operation: .webList, baseURL: baseURL, contentType: contentType)
            switch run(request, descriptors: [descriptor], cancellation: cancellation) {
            case .failure(let breakdown):
                if case .couldNotStart = breakdown { return .failure(DecodeFailure(.unavailable, tr("The list could not be read safely."))) }
                if case .cancelled = breakdown { return .failure(DecodeFailure(.cancelled, "Cancelled")) }
                log("\(baseURL): \(breakdown.description); decoding goes on in a new process")
                if case .hung = breakdown { return .failure(DecodeFailure(.timedOut, tr("Reading the list took too long."))) }
                return .failure(DecodeFailure(.unsafe, tr("The list could not be read safely.")))
            case .success((let reply, let bytes)):
                switch reply.outcome {
                case .webList(let byteCount):
                    guard let bytes else { return .failure(DecodeFailure(.unsafe, tr("The list could not be read safely."))) }
                    let list = SharedBytes.read(fd: bytes, byteCount: byteCount) { memory throws(DecoderMessage.Malformed) in
                        do throws(WebPhotoList.Malformed) {
                            return try WebPhotoList(decoding: memory)
                        } catch {
                            throw DecoderMessage.Malformed(reason: error.reason)
                        }
                    }
                    switch list {
                    case .success(let list): return .success(list)
                    case .failure(let problem):
                        log("\(baseURL): the decoder's list was refused (\(problem.reason))")
                        return .failure(DecodeFailure(.unsafe, tr("The list could not be read safely.")))
                    }
                case .failure(let failure):
                    if let bytes { close(bytes) }
                    return .failure(failure)
                default:
                    if let bytes { close(bytes) }
                    return .failure(DecodeFailure(.unsafe, tr("The list could not be read safely.")))
                }
            }
        }
    }
}

extension IsolatedDecoder {
    /// The EXIF block a marked-up copy of the photo at `uri` keeps, for a copy of `size`:
    /// the photo's own, read and rewritten in a decoder process (`SavedExif`); nil when it has
    /// none.
    public func savedExif(uri: String, size: PixelSize, cancellation: CancellationFlag) -> [UInt8]? {
        decoding {
            var start: [UInt8] = []
            _ = PhotoMetadata.readStart(uri: uri) { start += $0; return true }
            return JPEGExif.block(in: start).flatMap { SavedExif.rewritten($0, size: size) }
        } isolated: {
            let request = DecoderRequest(id: 0, operation: .savedExif, fitting: size)
            guard case .success((let reply, let bytes)) = run(request, uri: uri, reach: .prefix(RemoteFileCopies.largestMetadataPrefix),
                                                              cancellation: cancellation) else { return nil }
            guard case .exifBlock(let count) = reply.outcome, let bytes else {
                if let bytes { close(bytes) }
                return nil
            }
            let block = SharedBytes.read(fd: bytes, byteCount: count) { Array($0) }
            guard case .success(let exif) = block, exif.starts(with: JPEGExif.header) else { return nil }
            return exif
        }
    }
}

extension IsolatedDecoder {
    /// A JPEG's EXIF orientation, read in a decoder process (`OrientedExif`): where its EXIF
    /// segment lies, the orientation found, and the segment's new payload with the orientation
    /// turned by `quarterTurns` clockwise, or set to `orientation`; neither: only what the
    /// file holds (a file written checked before it replaces the original).
    public func orientationEdit(uri: String, quarterTurns: Int? = nil, orientation: ExifOrientation? = nil,
                                cancellation: CancellationFlag) -> Result<OrientationEdit, DecodeFailure> {
        decoding {
            var start: [UInt8] = []
            guard PhotoMetadata.readStart(uri: uri, { start += $0; return true }) else {
                return .failure(DecodeFailure(.unreadable, tr("The file could not be read.")))
            }
            return OrientedExif.edit(start: start, turns: quarterTurns, set: orientation?.value)
        } isolated: {
            let request = DecoderRequest(id: 0, operation: .orientation, quarterTurns: quarterTurns, orientation: orientation?.value)
            switch run(request, uri: uri, reach: .prefix(PhotoMetadata.maxBytes), cancellation: cancellation) {
            case .failure(let failure): return .failure(failure)
            case .success((let reply, let bytes)):
                guard case .orientationEdit(let found, let segment, let count) = reply.outcome, let found = ExifOrientation(found) else {
                    if let bytes { close(bytes) }
                    if case .failure(let failure) = reply.outcome { return .failure(failure) }
                    return .failure(DecodeFailure(.unsafe, tr("The photo’s EXIF could not be read safely.")))
                }
                guard count > 0 else {
                    if let bytes { close(bytes) }
                    return .success(OrientationEdit(found: found, segment: segment, payload: nil))
                }
                guard let bytes, case .success(let payload) = SharedBytes.read(fd: bytes, byteCount: count, { Array($0) }),
                      payload.starts(with: JPEGExif.header) else {
                    return .failure(DecodeFailure(.unsafe, tr("The photo’s EXIF could not be read safely.")))
                }
                return .success(OrientationEdit(found: found, segment: segment, payload: payload))
            }
        }
    }
}

extension IsolatedDecoder {
    /// The marks in the sidecar or photo at `uri`, read in a decoder process (`XMPMarks`);
    /// nil when the file is missing or holds no XMP that could be read.
    public func marks(uri: String, cancellation: CancellationFlag) -> PhotoMarks? {
        decoding {
            guard case .success(let file) = Self.open(uri: uri, reach: .prefix(XMPMarks.maxBytes), cancellation: cancellation) else { return nil }
            defer { close(file.fd) }
            return XMPMarks.read(descriptor: file.fd)
        } isolated: {
            let request = DecoderRequest(id: 0, operation: .marks)
            guard case .success((let reply, let bytes)) = run(request, uri: uri, reach: .prefix(XMPMarks.maxBytes),
                                                              cancellation: cancellation) else { return nil }
            if let bytes { close(bytes) }
            guard case .marks(let marks) = reply.outcome else { return nil }
            return marks
        }
    }

    /// The sidecar at `uri` with `marks` merged into it, every other field kept, made in a
    /// decoder process (`XMPMarks.merged`).
    public func mergedSidecar(uri: String, marks: PhotoMarks, cancellation: CancellationFlag) -> Result<[UInt8], DecodeFailure> {
        decoding {
            guard case .success(let file) = Self.open(uri: uri, cancellation: cancellation) else {
                return .failure(DecodeFailure(.unreadable, tr("The file could not be read.")))
            }
            defer { close(file.fd) }
            guard let bytes = XMPMarks.readWhole(descriptor: file.fd), let merged = XMPMarks.merged(marks, into: bytes) else {
                return .failure(DecodeFailure(.corrupt, tr("The sidecar is not XMP that could be merged into.")))
            }
            return .success(merged)
        } isolated: {
            let request = DecoderRequest(id: 0, operation: .mergedSidecar, marks: marks)
            switch run(request, uri: uri, reach: .whole, cancellation: cancellation) {
            case .failure(let failure): return .failure(failure)
            case .success((let reply, let bytes)):
                guard case .sidecar(let count) = reply.outcome, let bytes,
                      case .success(let merged) = SharedBytes.read(fd: bytes, byteCount: count, { Array($0) }) else {
                    if case .failure(let failure) = reply.outcome { return .failure(failure) }
                    return .failure(DecodeFailure(.unsafe, tr("The sidecar is not XMP that could be merged into.")))
                }
                return .success(merged)
            }
        }
    }
}
