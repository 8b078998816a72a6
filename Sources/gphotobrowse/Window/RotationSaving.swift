import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Save Rotation: the viewer's rotation of a JPEG written into its file as the EXIF
/// orientation (`SavedRotation`, a job of the window's), with a toast offering Undo, and
/// Ctrl+Z; for other formats, a toast saying why it cannot be saved. Offered while the photo
/// shown is turned (the viewer's toolbar, the photo's menu).
///
/// It needs the window's toasts, decoder and jobs, and the folder the photo is in (its
/// viewer, its album and its history), not the window.
@MainActor
final class RotationSaving {
    private weak var toasts: Toasts?
    private let decoder: IsolatedDecoder
    private let jobs: WindowJobs

    init(toasts: Toasts, decoder: IsolatedDecoder, jobs: WindowJobs) {
        self.toasts = toasts
        self.decoder = decoder
        self.jobs = jobs
    }

    /// Saves the rotation of the photo `folder`'s viewer shows.
    func save(shownIn folder: OpenFolder) {
        guard let index = folder.viewer.index else { return }
        let photo = folder.contents.photos[index]
        let turns = folder.viewer.shownRotation
        guard turns != 0, !WebPhotoFiles.isWebAddress(photo.id) else { return }
        guard SavedRotation.canSave(contentType: photo.contentType) else {
            toasts?.show(tr("Only a JPEG’s rotation can be saved without re-encoding it, which would lose quality: “%s” is left as it is.", OutsideText(photo.displayName)), seconds: 10)
            return
        }
        let started = Trace.millisecondsSinceStart()
        let decoder = self.decoder
        let uri = photo.id
        let version = photo.version
        let owner = MainThreadOwner(self)
        let inFolder = MainThreadOwner(folder)
        jobs.perform { flag in
            let result = SavedRotation.save(.turn(turns), to: uri, decoder: decoder, cancellation: flag)
            owner.onMain { saving in
                inFolder.onMain { folder in saving.saved(result, photo: photo, version: version, started: started, in: folder) }
            }
        }
    }

    private func saved(_ result: Result<SavedRotation.Saved, FileOperationFailure>, photo: Photo, version: PhotoVersion, started: Int,
                       in folder: OpenFolder) {
        let uri = photo.id
        switch result {
        case .failure(let failure):
            toasts?.show(failure.message, seconds: 10)
        case .success(let saved):
            Trace.milestone("rotation-saved", text: "\(parseName(ofURI: uri)) \(Trace.millisecondsSinceStart() - started)")
            folder.viewer.rotationWasSaved(version)
            folder.contents.refresh([uri])
            let step = folder.history.record(.rotation(uri: uri, previous: saved.previous))
            toasts?.show(tr("Rotation saved in “%s”", OutsideText(photo.displayName)), actionLabel: tr("Undo")) { [weak self, weak folder] in
                guard let self, let folder, case .rotation(let uri, let previous)? = folder.history.take(step) else { return }
                self.undo(uri, back: previous, in: folder)
            }
        }
    }

    /// Writes the orientation the photo had back, the same safe way.
    func undo(_ uri: String, back previous: ExifOrientation, in folder: OpenFolder) {
        toasts?.dismissActionable()
        let decoder = self.decoder
        let owner = MainThreadOwner(self)
        let inFolder = MainThreadOwner(folder)
        jobs.perform { flag in
            let result = SavedRotation.save(.set(previous), to: uri, decoder: decoder, cancellation: flag)
            owner.onMain { saving in
                inFolder.onMain { folder in
                    switch result {
                    case .success:
                        Trace.milestone("rotation-restored", text: parseName(ofURI: uri))
                        folder.contents.refresh([uri])
                    case .failure(let failure):
                        saving.toasts?.show(tr("The rotation was not undone: %s", failure.message), seconds: 10)
                    }
                }
            }
        }
    }
}
