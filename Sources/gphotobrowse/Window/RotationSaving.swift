import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Save Rotation: the viewer's rotation of a JPEG written into its file as the EXIF
/// orientation (`SavedRotation`, on a worker), with a toast offering Undo, and Ctrl+Z; for
/// other formats, a toast saying why it cannot be saved. Offered while the photo shown is
/// turned (the viewer's toolbar, the photo's menu).
extension BrowserWindow {
    func saveRotation() {
        guard let folder, isViewerShown, let index = folder.viewer.index else { return }
        let photo = folder.contents.photos[index]
        let turns = folder.viewer.shownRotation
        guard turns != 0, !WebPhotoFiles.isWebAddress(photo.id) else { return }
        guard SavedRotation.canSave(contentType: photo.contentType) else {
            toasts.show(tr("Only a JPEG’s rotation can be saved without re-encoding it, which would lose quality: “%s” is left as it is.", OutsideText(photo.displayName)), seconds: 10)
            return
        }
        let started = Trace.millisecondsSinceStart()
        let decoder = self.decoder
        let uri = photo.id
        let version = photo.version
        let owner = MainThreadOwner(self)
        jobs.perform { flag in
            let result = SavedRotation.save(.turn(turns), to: uri, decoder: decoder, cancellation: flag)
            owner.onMain { window in
                guard let folder = window.folder else { return }
                switch result {
                case .failure(let failure):
                    window.toasts.show(failure.message, seconds: 10)
                case .success(let saved):
                    Trace.milestone("rotation-saved", text: "\(parseName(ofURI: uri)) \(Trace.millisecondsSinceStart() - started)")
                    folder.viewer.rotationSaved[uri] = version
                    folder.contents.refresh([uri])
                    let step = folder.history.record(.rotation(uri: uri, previous: saved.previous))
                    window.toasts.show(tr("Rotation saved in “%s”", OutsideText(photo.displayName)), actionLabel: tr("Undo")) { [weak window] in
                        guard let window, case .rotation(let uri, let previous)? = window.folder?.history.take(step) else { return }
                        window.undoRotation(of: uri, back: previous)
                    }
                }
            }
        }
    }

    /// Writes the orientation the photo had back, the same safe way.
    func undoRotation(of uri: String, back previous: ExifOrientation) {
        toasts.dismissActionable()
        let decoder = self.decoder
        let owner = MainThreadOwner(self)
        jobs.perform { flag in
            let result = SavedRotation.save(.set(previous), to: uri, decoder: decoder, cancellation: flag)
            owner.onMain { window in
                guard let folder = window.folder else { return }
                switch result {
                case .success:
                    Trace.milestone("rotation-restored", text: parseName(ofURI: uri))
                    folder.contents.refresh([uri])
                case .failure(let failure):
                    window.toasts.show(tr("The rotation was not undone: %s", failure.message), seconds: 10)
                }
            }
        }
    }
}
