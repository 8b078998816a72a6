import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// What the board reads and writes, on workers: the photo marked up (decoded in the decoder
/// processes at its full size), photos brought in (a file, the clipboard's image, one dropped:
/// decoded there too), and the result saved (a new file beside the original, never
/// replacing one; its EXIF kept, rewritten in a decoder process) or put on the clipboard.
/// Each is a job of the board's window (`WindowJobs`): its decodes stop when the window closes.
@MainActor
enum BoardFiles {
    /// The photo at `uri`, upright, at its full size, as the board's pixels.
    static func load(_ uri: String, jobs: WindowJobs, _ done: @escaping @MainActor (Result<(BoardPhoto, format: String), DecodeFailure>) -> Void) {
        jobs.run { flag in
            let request = DecodeRequest(uri: uri, fitting: PixelSize(width: Int(DecoderRequest.maxEdge), height: Int(DecoderRequest.maxEdge)))
            let decoded = IsolatedDecoder.shared.decode(request, cancellation: flag).map { (BoardPhoto($0), format: $0.format) }
            onMain { done(decoded) }
        }
    }

    /// A photo to bring in, at most `box` (the board's size twice over is plenty).
    static func loadInserted(_ uri: String, box: PixelSize, jobs: WindowJobs, _ done: @escaping @MainActor (Result<BoardPhoto, DecodeFailure>) -> Void) {
        jobs.run { flag in
            let decoded = IsolatedDecoder.shared.decode(DecodeRequest(uri: uri, fitting: box), cancellation: flag).map(BoardPhoto.init)
            onMain { done(decoded) }
        }
    }

    /// The clipboard's image, read as the bytes another program offers (PNG, JPEG…), then
    /// decoded like a file, in a decoder process.
    static func pasteImage(from widget: Widget, box: PixelSize, jobs: WindowJobs, _ done: @escaping @MainActor (Result<BoardPhoto, DecodeFailure>?) -> Void) {
        let clipboard = gtk_widget_get_clipboard(widget)
        let types = ["image/png", "image/jpeg", "image/webp", "image/gif", "image/bmp", "image/tiff"]
        var pointers = types.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        let finish: @MainActor (UnsafeMutablePointer<GInputStream>?) -> Void = { stream in
            guard let stream else { return done(nil) }
            ClipboardBytes.read(stream, limit: 256 << 20) { bytes in
                guard let bytes else { return done(nil) }
                jobs.run { flag in
                    // The bytes go to a file the decoder reads, removed after.
                    let path = RemoteFileCopies.defaultFolder() + "/pasted-\(UUID().uuidString)"
                    try? FileManager.default.createDirectory(atPath: RemoteFileCopies.defaultFolder(), withIntermediateDirectories: true)
                    let written = FileManager.default.createFile(atPath: path, contents: bytes)
                    defer { try? FileManager.default.removeItem(atPath: path) }
                    let decoded: Result<BoardPhoto, DecodeFailure> = written
                        ? IsolatedDecoder.shared.decode(DecodeRequest(uri: URL(fileURLWithPath: path).absoluteString, fitting: box),
                                                        cancellation: flag).map(BoardPhoto.init)
                        : .failure(DecodeFailure(.unreadable, tr("The pasted image could not be kept for reading.")))
                    onMain { done(decoded) }
                }
            }
        }
        ClipboardBytes.readAsync(clipboard, types: &pointers, finish)
    }

    /// Ctrl+S: where `SaveDestination` says (beside the original, `original` a URI; in
    /// Pictures for a web photo or a blank board, nil), in the original's format, with its
    /// EXIF; calls `done` with the new file's URI.
    static func save(_ board: Board, images: BoardImages, original: String?, originalFormat: String?, jobs: WindowJobs,
                     _ done: @escaping @MainActor (Result<String, FileOperationFailure>) -> Void) {
        jobs.run { flag in
            let pictures = URL(fileURLWithPath: PicturesFolder.forSaving()).absoluteString
            let result: Result<String, FileOperationFailure>
            switch SaveDestination.board(original: original, pictures: pictures) {
            case .beside(let beside):
                let format = SaveFormat.forOriginal(format: originalFormat)
                let exif = format.keepsExif ? original.flatMap { IsolatedDecoder.shared.savedExif(uri: $0, size: board.size, cancellation: flag) } : nil
                // The window closed while the photo's EXIF was read: nothing is saved without it.
                if flag.isCancelled { return }
                result = BoardSaving.saveBeside(original: beside, board: board, images: images, format: format, exif: exif)
            case .drawing(let folder):
                result = BoardSaving.saveDrawing(in: folder, board: board, images: images)
            }
            onMain { done(result) }
        }
    }

    /// Save As…: exactly `target`, in the format its name says.
    static func save(_ board: Board, images: BoardImages, original: String?, to target: String, format: SaveFormat, jobs: WindowJobs,
                     _ done: @escaping @MainActor (Result<String, FileOperationFailure>) -> Void) {
        jobs.run { flag in
            let exif = format.keepsExif ? original.flatMap { IsolatedDecoder.shared.savedExif(uri: $0, size: board.size, cancellation: flag) } : nil
            if flag.isCancelled { return }
            let result = BoardSaving.save(board, images: images, format: format, exif: exif, to: target)
            onMain { done(result) }
        }
    }

    /// Copy: the result as a PNG, to put on the clipboard.
    static func encodePNG(_ board: Board, images: BoardImages, jobs: WindowJobs, _ done: @escaping @MainActor ([UInt8]?) -> Void) {
        jobs.run { _ in
            let encoded = try? BoardSaving.encodedPNG(board, images: images).get()
            onMain { done(encoded) }
        }
    }
}
