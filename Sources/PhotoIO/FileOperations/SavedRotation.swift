import CGdkPixbuf
import Glibc
import PhotoCore

/// "Save Rotation": the viewer's rotation written into a JPEG as its EXIF orientation, the
/// image data untouched; and undone the same way.
///
/// The photo's bytes are read only in a decoder process, which answers where its EXIF
/// segment lies and the segment's new payload (`IsolatedDecoder.orientationEdit`). Here the
/// bytes are spliced at those offsets into a new file in the same folder under a hidden
/// temporary name; that file is read back and checked (every byte outside the segment the
/// original's, and its orientation, read again in a decoder process, the one asked for);
/// then it gets the original's permissions and is renamed over it, unless the original
/// changed meanwhile. This is the only place a person's file is replaced. Blocking: called
/// on a worker.
public enum SavedRotation {
    public enum Change: Sendable, Equatable {
        /// Clockwise quarter turns added to the orientation the file has.
        case turn(Int)
        /// The orientation to set (undo).
        case set(ExifOrientation)
    }

    public struct Saved: Sendable, Equatable {
        public let previous: ExifOrientation
        public let now: ExifOrientation

        public init(previous: ExifOrientation, now: ExifOrientation) {
            self.previous = previous
            self.now = now
        }
    }

    /// Whether a rotation can be saved into a photo of this content type without
    /// re-encoding it: JPEGs only.
    public static func canSave(contentType: String) -> Bool {
        contentType == "image/jpeg" || contentType == "image/pjpeg"
    }

    /// A cancelled flag stops the save at its next step, before the photo is replaced (never
    /// after), and removes the file it was writing.
    public static func save(_ change: Change, to uri: String, decoder: IsolatedDecoder,
                            cancellation: CancellationFlag) -> Result<Saved, FileOperationFailure> {
        let cancelled = FileOperationFailure(.cancelled, tr("The rotation was cancelled."))
        if cancellation.isCancelled { return .failure(cancelled) }
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        guard let before = status(of: file) else { return .failure(FileOperationFailure(.vanished, tr("The photo is no longer there."))) }
        guard before.isRegular else { return .failure(FileOperationFailure(.notAFile, tr("Only a photo’s own file can be rotated, not a link to it."))) }

        let edit: OrientationEdit
        switch decoder.orientationEdit(uri: uri, quarterTurns: change.turns, orientation: change.orientation, cancellation: cancellation) {
        case .success(let answer): edit = answer
        case .failure(let failure): return .failure(FileOperationFailure(.other, tr("The rotation could not be saved: %s", failure.reason)))
        }
        let target = change.orientation ?? edit.found.rotated(by: change.turns ?? 0)
        guard let payload = edit.payload else { return .failure(unsafe) }
        if target == edit.found { return .success(Saved(previous: edit.found, now: target)) }

        guard let original = contents(of: file), original.count == before.size,
              let written = OrientationEdit.spliced(original, replacing: edit.segment, withPayload: payload) else { return .failure(unsafe) }
        let temporary: OpaquePointer?
        switch write(written, besides: file) {
        case .success(let created): temporary = created
        case .failure(let failure): return .failure(failure)
        }
        defer { unref(temporary) }
        var replaced = false
        defer { if !replaced { g_file_delete(temporary, nil, nil) } }

        // The file as it is on the disk now: only the segment differs, and it holds the target.
        let newSegment = edit.segment.lowerBound..<(edit.segment.lowerBound + payload.count + 4)
        guard let reread = contents(of: temporary),
              OrientationEdit.onlySegmentDiffers(original: original, written: reread, segment: edit.segment, newSegmentLength: newSegment.count),
              case .success(let check) = decoder.orientationEdit(uri: PhotoIO.uri(of: temporary), cancellation: cancellation),
              check.found == target, check.segment == newSegment else { return .failure(cancellation.isCancelled ? cancelled : unsafe) }

        g_file_set_attribute_uint32(temporary, "unix::mode", before.mode, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil, nil)
        if cancellation.isCancelled { return .failure(cancelled) }
        guard let now = status(of: file), now.size == before.size, now.modified == before.modified else {
            return .failure(FileOperationFailure(.other, tr("The photo changed on the disk meanwhile; it was left as it is.")))
        }
        var error: UnsafeMutablePointer<GError>?
        let flags = GFileCopyFlags(rawValue: G_FILE_COPY_OVERWRITE.rawValue | G_FILE_COPY_NO_FALLBACK_FOR_MOVE.rawValue | G_FILE_COPY_NOFOLLOW_SYMLINKS.rawValue)
        guard g_file_move(temporary, file, flags, nil, nil, nil, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? ""
            if let error { g_error_free(error) }
            return .failure(FileOperationFailure(.other, tr("The rotation could not be saved: %s", message)))
        }
        replaced = true
        return .success(Saved(previous: edit.found, now: target))
    }

    private static var unsafe: FileOperationFailure {
        FileOperationFailure(.other, tr("The rotation could not be saved safely; the photo was left as it is."))
    }

    private struct Status { var size: Int; var modified: UInt64; var mode: UInt32; var isRegular: Bool }

    private static func status(of file: OpaquePointer?) -> Status? {
        guard let info = g_file_query_info(file, "standard::type,standard::size,time::modified,time::modified-usec,unix::mode",
                                           G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, nil, nil) else { return nil }
        defer { unref(info) }
        let modified = UInt64(bitPattern: modifiedMicroseconds(in: info))
        let mode = g_file_info_has_attribute(info, "unix::mode") != 0 ? g_file_info_get_attribute_uint32(info, "unix::mode") & 0o7777 : 0o644
        return Status(size: Int(g_file_info_get_size(info)), modified: modified, mode: mode,
                      isRegular: g_file_info_get_file_type(info) == G_FILE_TYPE_REGULAR)
    }

    /// The file's bytes, unparsed.
    private static func contents(of file: OpaquePointer?) -> [UInt8]? {
        var bytes: UnsafeMutablePointer<CChar>?
        var length: gsize = 0
        guard g_file_load_contents(file, nil, &bytes, &length, nil, nil) != 0, let bytes else { return nil }
        defer { g_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
    }

    /// `bytes` in a new hidden file beside `file` (".NAME.rotating-XXXXXX"), made for them:
    /// never an existing file.
    private static func write(_ bytes: [UInt8], besides file: OpaquePointer?) -> Result<OpaquePointer?, FileOperationFailure> {
        guard let folder = g_file_get_parent(file), let name = fileNameBytes(file) else { return .failure(unsafe) }
        defer { unref(folder) }
        for _ in 0..<10 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
            let temporary = g_file_get_child(folder, cString(Array(".".utf8) + name.prefix(200) + Array(".rotating-\(suffix)".utf8)))
            var error: UnsafeMutablePointer<GError>?
            guard let stream = g_file_create(temporary, G_FILE_CREATE_PRIVATE, nil, &error) else {
                let exists = error.map { g_error_matches($0, g_io_error_quark(), Int32(G_IO_ERROR_EXISTS.rawValue)) != 0 } ?? false
                let message = error.map { String(cString: $0.pointee.message) } ?? ""
                if let error { g_error_free(error) }
                unref(temporary)
                if exists { continue }
                return .failure(FileOperationFailure(.other, tr("The rotation could not be saved: %s", message)))
            }
            let output = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GOutputStream.self)
            var written: gsize = 0
            let wrote = bytes.withUnsafeBytes { g_output_stream_write_all(output, $0.baseAddress, gsize($0.count), &written, nil, &error) } != 0
            var closeError: UnsafeMutablePointer<GError>?
            let closed = g_output_stream_close(output, nil, &closeError) != 0
            if error == nil { error = closeError } else if let closeError { g_error_free(closeError) }
            unref(stream)
            guard wrote, closed, Int(written) == bytes.count else {
                let message = error.map { String(cString: $0.pointee.message) } ?? ""
                if let error { g_error_free(error) }
                g_file_delete(temporary, nil, nil)
                unref(temporary)
                return .failure(FileOperationFailure(.noSpace, tr("The rotation could not be saved: %s", message)))
            }
            return .success(temporary)
        }
        return .failure(unsafe)
    }
}

extension SavedRotation.Change {
    var turns: Int? { if case .turn(let turns) = self { turns } else { nil } }
    var orientation: ExifOrientation? { if case .set(let orientation) = self { orientation } else { nil } }
}
