import Foundation
import PhotoCore
import PhotoIO

/// One `gphotobrowse --pick`: what it asked for, and its caller, who gets the photos chosen
/// on its standard output and exit status 0, nothing and 1 when the person cancels, or a
/// message and 2 when what it named cannot be opened.
@MainActor
final class PickSession {
    private let live = LiveObjects.Token("PickSession")
    let options: PickOptions
    private let caller: CommandLineCaller
    /// The URI to choose from.
    let location: String
    private(set) var isDone = false
    /// The chosen photos' paths are being looked up.
    private var isChoosing = false
    /// The window is to close: the caller has its answer.
    var onDone: () -> Void = {}

    init(options: PickOptions, caller: CommandLineCaller, location: String) {
        self.options = options
        self.caller = caller
        self.location = location
    }

    /// Writes `photos` (in the order given: the order shown) for the caller, and ends. Their
    /// paths are looked up as a job of the picking window (`jobs`; a web photo is downloaded
    /// if it is not yet): the window closed meanwhile, nothing is chosen.
    func choose(_ photos: [Photo], jobs: WindowJobs) {
        guard !isDone, !isChoosing, !photos.isEmpty else { return }
        isChoosing = true
        let uris = photos.map(\.id), asURIs = options.uris, nullSeparated = options.nullSeparated
        let owner = MainThreadOwner(self)
        jobs.perform { flag in
            var entries: [[UInt8]] = []
            var problem: String?
            for uri in uris {
                if asURIs {
                    entries.append(Array(uri.utf8))
                    continue
                }
                switch PickedFiles.path(of: uri, cancellation: flag) {
                case .success(let path): entries.append(path)
                case .failure(let failure):
                    problem = tr("“%1$s” could not be copied to this computer: %2$s", parseName(ofURI: uri), failure.message)
                }
                if problem != nil { break }
            }
            let output = PickedOutput.bytes(entries, nullSeparated: nullSeparated)
            owner.onMain { session in
                guard !session.isDone else { return }  // the window closed meanwhile
                session.isDone = true
                if let problem {
                    session.caller.writeError(problem)
                    session.end(2)
                } else {
                    session.caller.write(output)
                    session.end(0)
                }
            }
        }
    }

    /// Nothing chosen (Escape, the window closed).
    func cancel() {
        guard !isDone else { return }
        isDone = true
        end(1)
    }

    /// What the caller named cannot be shown: it hears why.
    func fail(_ message: String) {
        guard !isDone else { return }
        isDone = true
        caller.writeError(message)
        end(2)
    }

    private func end(_ status: Int32) {
        caller.finish(status)
        onDone()
    }
}
