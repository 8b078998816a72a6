import CGdkPixbuf
import Foundation
import PhotoCore

/// The file on this computer a chosen photo is (what `--pick` writes for it): a local file's
/// path as its bytes; a web photo's downloaded copy in the download cache (downloaded now when
/// it is not there); a photo on another machine, the path GVfs gives it where its FUSE
/// folder runs, else a copy made in `$XDG_CACHE_HOME/gphotobrowse/picked/` under its name
/// (a number added when the name is taken).
///
/// Blocking: call it on a worker thread.
public enum PickedFiles {
    public static func path(of uri: String, cancellation: CancellationFlag) -> Result<[UInt8], FileOperationFailure> {
        if WebAddress.isWebAddress(uri) {
            switch WebPhotoFiles.shared.fetch(uri, policy: .preferCached, cancellation: cancellation) {
            case .success(let file): return .success(Array(file.path.utf8))
            case .failure(let failure): return .failure(FileOperationFailure(.other, failure.message))
            }
        }
        let file = g_file_new_for_uri(uri)
        defer { unref(file) }
        if let path = localPath(file) { return .success(path.dropLast().map { UInt8(bitPattern: $0) }) }
        return copyHere(file, cancellation: cancellation)
    }

    /// A copy of a remote file in the cache's `picked/` folder, never replacing a file there.
    private static func copyHere(_ file: OpaquePointer?, cancellation: CancellationFlag) -> Result<[UInt8], FileOperationFailure> {
        let folder = RemoteFileCopies.defaultFolder() + "/picked"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = g_file_new_for_path(folder)
        defer { unref(target) }
        let report = PhotoExport.export([uri(of: file)], to: uri(of: target), cancellation: cancellation)
        guard let outcome = report.results.first?.outcome else { return .failure(FileOperationFailure(.other, tr("The photo could not be copied."))) }
        return outcome.flatMap { copy in
            let made = g_file_new_for_uri(copy)
            defer { unref(made) }
            guard let path = localPath(made) else { return .failure(FileOperationFailure(.other, tr("The copy has no path."))) }
            return .success(path.dropLast().map { UInt8(bitPattern: $0) })
        }
    }
}
