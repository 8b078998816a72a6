import Bridge
import CCairo
import CGdkPixbuf
import Glibc
import PhotoCore

/// Saving a board: rendered at full resolution by `BoardRenderer` (what the screen showed,
/// every pixel of the photo: a 6000×4000 photo gives a 6000×4000 file, its crop gives the
/// crop), encoded by gdk-pixbuf's savers, with the original's EXIF rewritten (`SavedExif`),
/// written so that nothing is ever replaced.
///
/// The file is written under a hidden temporary name in the target folder
/// (".NAME.gphotobrowse-Ab12Cd.part", created exclusively) and renamed only once complete,
/// by a rename that refuses to replace (`moveWithoutReplacing`: a hard link where the file
/// system has them); on failure the temporary file is deleted. A name taken meanwhile is
/// never overwritten: Save takes the next free one, Save As fails with `.exists`.
///
/// EXIF: give the original's EXIF block (`JPEGExif.block(in:)` on its first bytes, which a
/// decoder process read). JPEG carries it in an APP1 segment after the JFIF one, PNG in an
/// eXIf chunk after IHDR; WebP carries none.
///
/// Blocking: run on a worker (a 24 MP JPEG takes about a second), with a copy of the board.
///
/// ```swift
/// let saved = BoardSaving.saveBeside(original: uri, board: board, images: images,
///                                    format: .jpeg(quality: 90), exif: exifBlock)
/// // .success("file:///…/IMG_0042%20(marked%20up).jpg")
/// ```
public enum BoardSaving {
    /// Save (Ctrl+S): a new file beside `original` (a URI), named after it ("IMG_0042 (marked
    /// up).jpg", numbered when taken: `MarkedUpName`). Returns the new file's URI.
    public static func saveBeside(original: String, board: Board, images: BoardImages, format: SaveFormat,
                                  exif: [UInt8]? = nil) -> Result<String, FileOperationFailure> {
        let file = g_file_new_for_uri(original)
        defer { unref(file) }
        guard let folder = g_file_get_parent(file), let name = fileNameBytes(file) else {
            return .failure(FileOperationFailure(.noFolder, tr("“%s” is not a place a file can be saved to.", parseName(file))))
        }
        defer { unref(folder) }
        let oldExtension = String(decoding: MarkedUpName.split(name).extension.dropFirst(), as: UTF8.self)
        let newExtension = format.matches(extension: oldExtension) ? nil : Array(format.fileExtension.utf8)
        let names = MarkedUpName.candidates(for: name, extension: newExtension)
        return write(board, images: images, format: format, exif: exif, into: folder, names: names, displayName: displayName(name))
    }

    /// Save of a blank board: "Drawing.png" (numbered when taken) in `folder` (a URI), made
    /// first when it is missing (a new account's Pictures).
    public static func saveDrawing(in folder: String, board: Board, images: BoardImages,
                                   format: SaveFormat = .png) -> Result<String, FileOperationFailure> {
        let target = g_file_new_for_uri(folder)
        defer { unref(target) }
        if g_file_query_exists(target, nil) == 0 {
            var error: UnsafeMutablePointer<GError>?
            if g_file_make_directory_with_parents(target, nil, &error) == 0, let error {
                defer { g_error_free(error) }
                if error.pointee.code != G_IO_ERROR_EXISTS.rawValue {
                    return .failure(FileOperationFailure(.noFolder, tr("“%1$s” cannot be made: %2$s", parseName(target), String(cString: error.pointee.message))))
                }
            }
        }
        let names = MarkedUpName.drawingCandidates(extension: format.fileExtension).lazy.map { Array($0.utf8) }
        return write(board, images: images, format: format, exif: nil, into: target, names: names, displayName: tr("Drawing"))
    }

    /// Save As: exactly `target` (a URI), which the file chooser confirmed is free; fails
    /// with `.exists` when it is taken, however late it appeared.
    public static func save(_ board: Board, images: BoardImages, format: SaveFormat, exif: [UInt8]? = nil,
                            to target: String) -> Result<String, FileOperationFailure> {
        let file = g_file_new_for_uri(target)
        defer { unref(file) }
        guard let folder = g_file_get_parent(file), let name = fileNameBytes(file) else {
            return .failure(FileOperationFailure(.noFolder, tr("“%s” is not a place a file can be saved to.", parseName(file))))
        }
        defer { unref(folder) }
        if g_file_query_exists(file, nil) != 0 {
            return .failure(FileOperationFailure(.exists, tr("“%1$s” already exists in “%2$s”.", displayName(name), parseName(folder))))
        }
        let result = write(board, images: images, format: format, exif: exif, into: folder, names: [name], displayName: displayName(name))
        if case .failure(let failure) = result, failure.kind == .exists {
            return .failure(FileOperationFailure(.exists, tr("“%1$s” already exists in “%2$s”.", displayName(name), parseName(folder))))
        }
        return result
    }

    /// The board at full resolution, as saved: for the clipboard (a `GdkMemoryTexture` of
    /// cairo's ARGB32, premultiplied) or anything else that wants pixels.
    public static func renderedImage(_ board: Board, images: BoardImages) -> PremultipliedImage {
        let raster = BoardRaster.whole(board)
        return PremultipliedImage.drawn(size: raster.size, isOpaque: true) { cr in
            BoardRenderer.render(board, images: images, on: cr, raster: raster)
        }
    }

    /// The board at full resolution as PNG bytes (no EXIF): for the clipboard's image/png.
    public static func encodedPNG(_ board: Board, images: BoardImages) -> Result<[UInt8], FileOperationFailure> {
        var bytes: [UInt8] = []
        let outcome = encode(renderedImage(board, images: images), format: .png, exif: nil) { chunk in
            bytes.append(contentsOf: chunk)
            return true
        }
        return outcome.map { bytes }
    }

    // MARK: - Writing

    private static func write(_ board: Board, images: BoardImages, format: SaveFormat, exif: [UInt8]?,
                              into folder: OpaquePointer?, names: some Sequence<[UInt8]>,
                              displayName: String) -> Result<String, FileOperationFailure> {
        guard format.isAvailable else {
            return .failure(FileOperationFailure(.other, tr("This computer cannot write %s files.", format.fileExtension.uppercased())))
        }
        if let problem = PhotoExport.checkFolder(folder) { return .failure(problem) }
        var first = [UInt8]()
        for name in names { first = name; break }

        // A temporary name nobody else has: created exclusively, so a clash means another
        // name, never someone else's file.
        var temporary: OpaquePointer?
        var stream: UnsafeMutablePointer<GFileOutputStream>?
        for _ in 0..<8 {
            let candidate = g_file_get_child(folder, cString(temporaryName(for: first)))
            var error: UnsafeMutablePointer<GError>?
            if let created = g_file_create(candidate, G_FILE_CREATE_NONE, nil, &error) {
                temporary = candidate
                stream = created
                break
            }
            unref(candidate)
            guard let error, g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_EXISTS.rawValue)) != 0 else {
                return .failure(explain(error, folder: folder))
            }
            g_error_free(error)
        }
        guard let temporary, let stream else {
            return .failure(FileOperationFailure(.other, tr("No temporary name was free in “%s”.", parseName(folder))))
        }
        defer { unref(temporary) }
        let output = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GOutputStream.self)

        var writeError: UnsafeMutablePointer<GError>?
        let encoded = encode(renderedImage(board, images: images), format: format, exif: format.keepsExif ? exif : nil) { chunk in
            chunk.withUnsafeBytes { g_output_stream_write_all(output, $0.baseAddress, gsize($0.count), nil, nil, &writeError) != 0 }
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = g_output_stream_close(output, nil, &closeError) != 0
        unref(stream)
        guard case .success = encoded, writeError == nil, closed else {
            g_file_delete(temporary, nil, nil)
            if let error = writeError ?? closeError {
                if writeError != nil, let closeError { g_error_free(closeError) }
                return .failure(explain(error, folder: folder))
            }
            if case .failure(let failure) = encoded { return .failure(failure) }
            return .failure(FileOperationFailure(.other, tr("“%s” could not be written.", displayName)))
        }

        switch moveWithoutReplacing(temporary, into: folder, trying: names) {
        case .success(let uri):
            return .success(uri)
        case .failure(let failure):
            g_file_delete(temporary, nil, nil)
            return .failure(failure)
        }
    }

    /// A GError from writing, as a failure a person understands. Frees the error.
    private static func explain(_ error: UnsafeMutablePointer<GError>?, folder: OpaquePointer?) -> FileOperationFailure {
        guard let error else { return FileOperationFailure(.other, tr("The file could not be written in “%s”.", parseName(folder))) }
        defer { g_error_free(error) }
        guard error.pointee.domain == g_io_error_quark() else {
            return FileOperationFailure(.other, tr("The file could not be written in “%1$s”: %2$s", parseName(folder), String(cString: error.pointee.message)))
        }
        switch GIOErrorEnum(UInt32(error.pointee.code)) {
        case G_IO_ERROR_PERMISSION_DENIED:
            return FileOperationFailure(.permissionDenied, tr("You do not have permission to save files in “%s”.", parseName(folder)))
        case G_IO_ERROR_NO_SPACE:
            return FileOperationFailure(.noSpace, tr("There is not enough space left in “%s”.", parseName(folder)))
        case G_IO_ERROR_READ_ONLY:
            return FileOperationFailure(.readOnly, tr("“%s” is on a disk that is read-only.", parseName(folder)))
        case G_IO_ERROR_NOT_FOUND:
            return FileOperationFailure(.noFolder, tr("The folder “%s” does not exist.", parseName(folder)))
        default:
            return FileOperationFailure(.other, tr("The file could not be written in “%1$s”: %2$s", parseName(folder), String(cString: error.pointee.message)))
        }
    }
}
