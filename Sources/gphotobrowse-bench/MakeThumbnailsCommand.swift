import Foundation
import PhotoCore
import PhotoIO

/// `make-thumbnails [--size SIZE] FILE_OR_DIR…`: runs the app's thumbnail pipeline
/// (`ThumbnailProvider`: cache, recorded failures, decode, save) over files, and over the
/// photos of folders (not recursively), in the thumbnail cache of `XDG_CACHE_HOME` (or
/// `~/.cache`). Prints one line per file on standard output:
///
///     ok URI                 decoded and saved
///     cached URI             a valid thumbnail was in the cache; the photo was not read
///     failed URI: REASON     no thumbnail (including a failure recorded earlier)
///
/// Exit status: 0 when every file has a thumbnail, 1 when any failed, 2 on usage errors.
enum MakeThumbnailsCommand: BenchCommand {
    static let name = "make-thumbnails"
    static let arguments = "[--size normal|large|x-large|xx-large] FILE_OR_DIR…"
    static let summary = "make (or find) the cached thumbnails of files and folders"

    static func run(_ arguments: [String]) -> Int32 {
        var size = ThumbnailSize.large
        var targets: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                targets.append(contentsOf: rest)
                break
            } else if argument == "-h" || argument == "--help" {
                print(usage)
                return 0
            } else if argument == "--size" || argument.hasPrefix("--size=") {
                let value = argument == "--size" ? rest.popFirst() : String(argument.dropFirst("--size=".count))
                guard let value, let chosen = ThumbnailSize(directoryName: value) else {
                    return usageError("--size takes normal, large, x-large or xx-large")
                }
                size = chosen
            } else if argument.hasPrefix("-") && argument != "-" {
                return usageError("unknown option \(argument)")
            } else {
                targets.append(argument)
            }
        }
        guard !targets.isEmpty else { return usageError("no file or folder given") }

        let provider = ThumbnailProvider(decoder: IsolatedDecoder.shared)
        var failures = 0
        for target in targets {
            let uri = FileStatus.uri(forCommandLineArgument: target)
            switch FileStatus.query(uri: uri) {
            case .failure(let failure):
                report(uri, .failure(failure))
                failures += 1
            case .success(let status) where status.isDirectory:
                switch photos(in: uri) {
                case .failure(let error):
                    printError("failed \(uri): \(error.message)")
                    failures += 1
                case .success(let photos):
                    for photo in photos where !make(ThumbnailRequest(photo: photo, size: size), with: provider) {
                        failures += 1
                    }
                }
            case .success(let status):
                let request = ThumbnailRequest(uri: uri, modifiedMicroseconds: status.modified, fileSize: status.size, size: size)
                if !make(request, with: provider) { failures += 1 }
            }
        }
        return failures == 0 ? 0 : 1
    }

    /// Runs the pipeline for one file and prints its line; false when it failed.
    private static func make(_ request: ThumbnailRequest, with provider: ThumbnailProvider) -> Bool {
        let outcome = provider.outcome(for: request, cancellation: CancellationFlag())
        switch outcome {
        case .cached:
            print("cached \(request.uri)")
        case .generated(_, let cacheError):
            print("ok \(request.uri)")
            if let cacheError { printError("warning: \(request.uri): not saved in the cache: \(cacheError)") }
        case .failed(let failure), .failedEarlier(let failure):
            report(request.uri, .failure(failure))
        }
        if case .failure = outcome.result { return false }
        return true
    }

    private static func report(_ uri: String, _ result: Result<Void, DecodeFailure>) {
        if case .failure(let failure) = result { print("failed \(uri): \(failure.reason)") }
    }

    /// The photos of a folder, in name order.
    private static func photos(in uri: String) -> Result<[Photo], FolderError> {
        var found: [Photo] = []
        let listing = FolderListing(uri: uri)
        return listing.run(deliver: { found.append(contentsOf: $0) }).map { _ in
            found.sorted(by: PhotoOrder.byName.areInIncreasingOrder)
        }
    }
}
