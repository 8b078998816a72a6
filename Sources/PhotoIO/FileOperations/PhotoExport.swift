import Bridge
import CGdkPixbuf
import Dispatch
import Foundation
import PhotoCore

/// What became of one photo of an export: the URI of its copy, or why there is none.
public struct ExportResult: Sendable, Equatable {
    public let source: String
    public let outcome: Result<String, FileOperationFailure>

    public var copy: String? { try? outcome.get() }
    public var failure: FileOperationFailure? {
        if case .failure(let failure) = outcome { return failure }
        return nil
    }
}

/// The outcome of an export: one result per source, in the order given.
public struct ExportReport: Sendable, Equatable {
    /// The folder exported to.
    public let folder: String
    public let results: [ExportResult]
    /// Whether the export stopped early; the sources not copied then fail with `.cancelled`.
    public let wasCancelled: Bool

    /// The URIs of the copies made, in the order of the sources.
    public var copies: [String] { results.compactMap(\.copy) }
    /// The results that are failures (cancelled ones included).
    public var failures: [ExportResult] { results.filter { $0.failure != nil } }
}

/// Copies photos byte for byte with GIO: the viewer's "Save a Copy…" and the grid's export
/// of a selection.
///
/// The bytes are the photo: EXIF (with the orientation and the date taken), ICC profiles
/// and XMP are inside them, so a copy loses nothing. The modification time and the other
/// metadata GIO knows come along (`G_FILE_COPY_ALL_METADATA`), but not the permissions:
/// a copy gets the target folder's defaults, as a freshly saved file would.
///
/// Two rules hold whatever happens:
/// - Nothing in the target folder is ever overwritten. A name already taken gets the next
///   free one ("IMG_1.jpg", "IMG_1 (2).jpg", "IMG_1 (3).jpg", …); `saveCopy` fails instead.
/// - A partial copy never appears under a final name. Each file is copied to a hidden
///   temporary name in the target folder (".IMG_1.jpg.gphotobrowse-Ab12Cd.part"), and only a
///   complete copy is renamed into place, by a rename that refuses to replace (a hard link,
///   or `g_file_move` without `G_FILE_COPY_OVERWRITE` where links are not supported). On
///   failure or cancellation the temporary file is deleted.
///
/// Blocking I/O: run it on a worker thread, never on the main thread.
public enum PhotoExport {
    /// Copies `sources` (URIs) into `folder` (a URI), one after another.
    ///
    /// `progress(done, total, bytes)` reports the files finished (copied or failed), the
    /// number of sources, and the bytes copied so far, counting the file in progress. It is
    /// called on the calling thread, before the first file, during each copy (GIO decides how
    /// often: up to once per chunk) and after each file; hop to the main thread and throttle there.
    ///
    /// `cancellation` stops the export between files, and also stops the copy in progress:
    /// the flag is checked at each chunk GIO reports, and polled on a timer for copies that
    /// stall (a hung network share). The sources not copied are reported as `.cancelled`.
    public static func export(
        _ sources: [String],
        to folder: String,
        cancellation: CancellationFlag,
        progress: (_ done: Int, _ total: Int, _ bytes: UInt64) -> Void = { _, _, _ in }
    ) -> ExportReport {
        let target = g_file_new_for_uri(folder)
        defer { unref(target) }
        let total = sources.count

        if let problem = checkFolder(target) {
            return ExportReport(
                folder: folder, results: sources.map { ExportResult(source: $0, outcome: .failure(problem)) }, wasCancelled: false
            )
        }

        let watch = CancellableWatch(cancellation)
        defer { watch.stop() }
        var results: [ExportResult] = []
        results.reserveCapacity(total)
        var bytes: UInt64 = 0
        progress(0, total, 0)
        for (done, source) in sources.enumerated() {
            if cancellation.isCancelled { break }
            let copied = bytes
            let outcome = copy(source, into: target, as: nil, watch: watch, cancellation: cancellation) { current in
                progress(done, total, copied + current)
            }
            if case .success(let result) = outcome { bytes += result.size }
            results.append(ExportResult(source: source, outcome: outcome.map(\.uri)))
            progress(done + 1, total, bytes)
        }
        let cancelled = results.count < total || results.contains { $0.failure?.kind == .cancelled }
        for source in sources[results.count...] {
            results.append(ExportResult(source: source, outcome: .failure(cancelledFailure)))
        }
        return ExportReport(folder: folder, results: results, wasCancelled: cancelled)
    }

    /// Copies `source` to exactly `target` (URIs): the viewer's "Save a Copy…".
    ///
    /// Never overwrites: the file chooser asks the person about a taken name before this is
    /// called, so a target that exists (or appears meanwhile) fails with `.exists`. Same
    /// temporary name and rename as `export`. Returns the target's URI.
    public static func saveCopy(
        of source: String, as target: String, cancellation: CancellationFlag
    ) -> Result<String, FileOperationFailure> {
        let file = g_file_new_for_uri(target)
        defer { unref(file) }
        guard let parent = g_file_get_parent(file), let name = fileNameBytes(file) else {
            return .failure(FileOperationFailure(.noFolder, "“\(parseName(file))” is not a place a file can be saved to."))
        }
        defer { unref(parent) }
        if let problem = checkFolder(parent) { return .failure(problem) }
        if g_file_query_exists(file, nil) != 0 {
            return .failure(exists(name, in: parent))
        }
        let watch = CancellableWatch(cancellation)
        defer { watch.stop() }
        return copy(source, into: parent, as: name, watch: watch, cancellation: cancellation, progress: { _ in }).map(\.uri)
    }

    // MARK: - One file

    private static let cancelledFailure = FileOperationFailure(.cancelled, tr("The export was cancelled."))

    /// Copies one file into `folder` through a temporary name, then renames it to `name`
    /// (fixed: `saveCopy`) or to the source's name, numbered until free (nil: `export`).
    private static func copy(
        _ sourceURI: String,
        into folder: OpaquePointer?,
        as fixedName: [UInt8]?,
        watch: CancellableWatch,
        cancellation: CancellationFlag,
        progress: (UInt64) -> Void
    ) -> Result<(uri: String, size: UInt64), FileOperationFailure> {
        // A web photo: its downloaded original, under the name its address ends with.
        var webName: [UInt8]?
        let source: OpaquePointer?
        if WebPhotoFiles.isWebAddress(sourceURI) {
            switch WebPhotoFiles.shared.fetch(sourceURI, policy: .preferCached, cancellation: cancellation) {
            case .failure(let failure):
                return .failure(failure.kind == .cancelled ? cancelledFailure : FileOperationFailure(.other, failure.message))
            case .success(let file):
                source = g_file_new_for_path(file.path)
                let name = WebAlbumWalk.displayName(of: sourceURI)
                webName = Array((name.isEmpty || name == "." || name == ".." ? "photo" : name).utf8)
            }
        } else {
            source = g_file_new_for_uri(sourceURI)
        }
        defer { unref(source) }
        let size: UInt64
        switch checkSource(source) {
        case .failure(let failure): return .failure(failure)
        case .success(let bytes): size = bytes
        }
        guard let sourceName = webName ?? fileNameBytes(source) else {
            return .failure(FileOperationFailure(.notAFile, "“\(parseName(source))” has no file name to copy."))
        }
        let name = fixedName ?? sourceName
        guard !cancellation.isCancelled else { return .failure(cancelledFailure) }

        // Copy to a temporary name nobody else uses: a clash (EXISTS) means the name was
        // taken, never that part of our copy is there, so try another.
        var temporary: OpaquePointer?
        for _ in 0..<8 {
            let candidate = g_file_get_child(folder, cString(temporaryName(for: name)))
            var error: UnsafeMutablePointer<GError>?
            let copied = withCopyProgress(progress, cancellation: cancellation, watch: watch) { callback, data in
                g_file_copy(source, candidate, copyFlags, watch.cancellable, callback, data, &error)
            }
            if copied != 0 {
                temporary = candidate
                break
            }
            let clash = error.map { g_error_matches($0, g_io_error_quark(), Int32(G_IO_ERROR_EXISTS.rawValue)) != 0 } ?? false
            if clash {
                g_error_free(error)
                unref(candidate)
                continue
            }
            // The partial copy, if any, is ours: delete it.
            g_file_delete(candidate, nil, nil)
            unref(candidate)
            if cancellation.isCancelled {
                if let error { g_error_free(error) }
                return .failure(cancelledFailure)
            }
            return .failure(explain(error, source: source, folder: folder))
        }
        guard let temporary else {
            return .failure(FileOperationFailure(.other, tr("No temporary name was free in “%s”.", parseName(folder))))
        }
        defer { unref(temporary) }

        // Only a complete copy gets a final name, and never once cancelled.
        guard !cancellation.isCancelled else {
            g_file_delete(temporary, nil, nil)
            return .failure(cancelledFailure)
        }
        let candidates: AnySequence<[UInt8]> = fixedName != nil
            ? AnySequence([name]) : AnySequence(SaveDestination.numberedNames(name))
        switch moveWithoutReplacing(temporary, into: folder, trying: candidates) {
        case .success(let uri):
            return .success((uri, size))
        case .failure(let failure):
            g_file_delete(temporary, nil, nil)
            if failure.kind == .exists && fixedName == nil {
                return .failure(FileOperationFailure(.other, tr("No free name was left for “%1$s” in “%2$s”.", displayName(name), parseName(folder))))
            }
            return .failure(failure.kind == .exists ? exists(name, in: folder) : failure)
        }
    }

    /// Queries the source: it must be a regular file (following symbolic links), never a
    /// pipe whose opening blocks or a folder. Returns its size.
    private static func checkSource(_ source: OpaquePointer?) -> Result<UInt64, FileOperationFailure> {
        var error: UnsafeMutablePointer<GError>?
        guard let info = g_file_query_info(source, "standard::type,standard::size", G_FILE_QUERY_INFO_NONE, nil, &error) else {
            return .failure(explain(error, source: source, folder: nil))
        }
        defer { unref(info) }
        switch g_file_info_get_file_type(info) {
        case G_FILE_TYPE_REGULAR:
            return .success(UInt64(max(0, g_file_info_get_size(info))))
        case G_FILE_TYPE_DIRECTORY, G_FILE_TYPE_MOUNTABLE:
            return .failure(FileOperationFailure(.notAFile, "“\(parseName(source))” is a folder, not a photo."))
        case G_FILE_TYPE_SYMBOLIC_LINK:
            return .failure(FileOperationFailure(.vanished, "“\(parseName(source))” is a symbolic link that leads nowhere."))
        default:
            return .failure(FileOperationFailure(.notAFile, "“\(parseName(source))” is not a regular file (a pipe, socket or device)."))
        }
    }

    /// Whether `folder` exists and is a folder; nil when it is fine.
    static func checkFolder(_ folder: OpaquePointer?) -> FileOperationFailure? {
        var error: UnsafeMutablePointer<GError>?
        guard let info = g_file_query_info(folder, "standard::type", G_FILE_QUERY_INFO_NONE, nil, &error) else {
            defer { if let error { g_error_free(error) } }
            if let error, g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_NOT_FOUND.rawValue)) != 0 {
                return FileOperationFailure(.noFolder, tr("The folder “%s” does not exist.", parseName(folder)))
            }
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            return FileOperationFailure(.noFolder, tr("The folder “%1$s” cannot be opened: %2$s", parseName(folder), reason))
        }
        defer { unref(info) }
        let type = g_file_info_get_file_type(info)
        guard type == G_FILE_TYPE_DIRECTORY || type == G_FILE_TYPE_MOUNTABLE else {
            return FileOperationFailure(.noFolder, "“\(parseName(folder))” is not a folder.")
        }
        return nil
    }

    /// The mtime and the rest of what GIO can carry; the target's default permissions.
    private static let copyFlags = GFileCopyFlags(
        rawValue: G_FILE_COPY_ALL_METADATA.rawValue | G_FILE_COPY_TARGET_DEFAULT_PERMS.rawValue
    )

    /// Runs `body` with a GIO progress callback that reports bytes to `progress` and turns
    /// the cancellation flag into a cancelled GCancellable at the next chunk.
    private static func withCopyProgress<R>(
        _ progress: (UInt64) -> Void,
        cancellation: CancellationFlag,
        watch: CancellableWatch,
        _ body: (GFileProgressCallback, gpointer) -> R
    ) -> R {
        withoutActuallyEscaping(progress) { progress in
            let context = CopyProgress(report: progress, cancellation: cancellation, cancellable: watch.cancellable)
            let data = CallbackBox.retain(context)
            defer { CallbackBox.release(data) }
            let callback: GFileProgressCallback = { current, _, data in
                guard let data else { return }
                let context = CallbackBox.value(data, as: CopyProgress.self)
                context.report(UInt64(max(0, current)))
                if context.cancellation.isCancelled { g_cancellable_cancel(context.cancellable) }
            }
            return body(callback, data)
        }
    }

    // MARK: - Failures in words

    /// A GError from copying, as a failure a person understands. Frees the error.
    private static func explain(
        _ error: UnsafeMutablePointer<GError>?, source: OpaquePointer?, folder: OpaquePointer?
    ) -> FileOperationFailure {
        guard let error else { return FileOperationFailure(.other, "“\(parseName(source))” could not be copied.") }
        defer { g_error_free(error) }
        let name = parseName(source)
        let message = String(cString: error.pointee.message)
        guard error.pointee.domain == g_io_error_quark() else {
            return FileOperationFailure(.other, "“\(name)” could not be copied: \(message)")
        }
        switch GIOErrorEnum(UInt32(error.pointee.code)) {
        case G_IO_ERROR_CANCELLED:
            return cancelledFailure
        case G_IO_ERROR_NOT_FOUND:
            if let folder, let problem = checkFolder(folder) { return problem }
            return FileOperationFailure(.vanished, "“\(name)” no longer exists.")
        case G_IO_ERROR_PERMISSION_DENIED:
            if folder == nil || !canRead(source) {
                return FileOperationFailure(.permissionDenied, tr("You do not have permission to read “%s”.", name))
            }
            return FileOperationFailure(.permissionDenied, tr("You do not have permission to save files in “%s”.", parseName(folder)))
        case G_IO_ERROR_NO_SPACE:
            return FileOperationFailure(.noSpace, tr("There is not enough space left for “%1$s” in “%2$s”.", name, parseName(folder)))
        case G_IO_ERROR_READ_ONLY:
            return FileOperationFailure(.readOnly, "“\(parseName(folder))” is on a disk that is read-only.")
        case G_IO_ERROR_IS_DIRECTORY, G_IO_ERROR_WOULD_RECURSE, G_IO_ERROR_NOT_REGULAR_FILE:
            return FileOperationFailure(.notAFile, "“\(name)” is not a regular file.")
        case G_IO_ERROR_FILENAME_TOO_LONG, G_IO_ERROR_INVALID_FILENAME:
            return FileOperationFailure(.other, tr("The disk of “%1$s” does not accept the name of “%2$s”.", parseName(folder), name))
        default:
            return FileOperationFailure(.other, "“\(name)” could not be copied: \(message)")
        }
    }

    private static func canRead(_ file: OpaquePointer?) -> Bool {
        guard let info = g_file_query_info(file, "access::can-read", G_FILE_QUERY_INFO_NONE, nil, nil) else { return false }
        defer { unref(info) }
        return g_file_info_get_attribute_boolean(info, "access::can-read") != 0
    }

    private static func exists(_ name: [UInt8], in folder: OpaquePointer?) -> FileOperationFailure {
        FileOperationFailure(.exists, "“\(displayName(name))” already exists in “\(parseName(folder))”.")
    }
}

/// ".NAME.gphotobrowse-XXXXXX.part": hidden, recognisably ours, within NAME_MAX.
func temporaryName(for name: [UInt8]) -> [UInt8] {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    let random = (0..<6).map { _ in alphabet.randomElement()! }
    return [UInt8(ascii: ".")] + name.prefix(200) + Array(".gphotobrowse-".utf8) + random + Array(".part".utf8)
}

// MARK: - Cancellation

/// A GCancellable for one export, cancelled when the `CancellationFlag` is set: at the next
/// progress report of a copy, or by a poll every 0.1 s for copies that report nothing
/// (a read blocked on a hung network share). `stop()` ends the poll.
final class CancellableWatch {
    /// GCancellable is documented as safe to cancel from any thread.
    private final class Box: @unchecked Sendable {
        let cancellable = g_cancellable_new()!
        deinit { g_object_unref(cancellable) }
    }

    private let box = Box()
    private let timer: any DispatchSourceTimer

    var cancellable: UnsafeMutablePointer<GCancellable> { box.cancellable }

    init(_ flag: CancellationFlag) {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let box = self.box
        timer.setEventHandler {
            if flag.isCancelled { g_cancellable_cancel(box.cancellable) }
        }
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(50))
        timer.resume()
    }

    func stop() { timer.cancel() }

    deinit { timer.cancel() }
}

/// What the GIO progress callback needs, passed through its user data.
private final class CopyProgress {
    let report: (UInt64) -> Void
    let cancellation: CancellationFlag
    let cancellable: UnsafeMutablePointer<GCancellable>

    init(report: @escaping (UInt64) -> Void, cancellation: CancellationFlag, cancellable: UnsafeMutablePointer<GCancellable>) {
        self.report = report
        self.cancellation = cancellation
        self.cancellable = cancellable
    }
}
