import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// A Live Photo's or a motion photo's movie in the viewer: the still shows, and its movie
/// plays over it on the toolbar's "Live" button or a long press, once through.
///
/// A Live Photo's movie is the file beside it (`Photo.liveMovie`), played as it is. A motion
/// photo's movie is inside its file, where the decoder process that made its thumbnail found
/// it (`EmbeddedMovie`): those bytes are copied, unread, into a file of their own
/// (`MotionMovieCopies`), which is played and then deleted.
extension PhotoViewer {
    /// The movie of the photo shown, if it has one.
    enum ShownMotion {
        case companion(uri: String)
        case embedded(EmbeddedMovie)
    }

    var shownMotion: ShownMotion? {
        guard let current, current.index < contents.photos.count else { return nil }
        let photo = contents.photos[current.index]
        if let movie = photo.liveMovie { return .companion(uri: movie.id) }
        // Known from the thumbnail this app made, or from the photo's own decode (the
        // thumbnail another program made says nothing of it).
        if let image = images.images[photo.id], image.version == photo.version, let movie = image.motionMovie {
            return .embedded(movie)
        }
        if case .image(_, let pixels)? = thumbnails.cached(photo.version), let movie = pixels.motionMovie {
            return .embedded(movie)
        }
        return nil
    }

    /// The photo shown changed, or what is known of it: the "Live" button shows for a movie.
    func motionChanged() {
        chrome.toolbar.showPlayMotion(shownMotion != nil)
    }

    /// Plays the shown photo's movie from its start.
    func playMotion() {
        guard let current, let motion = shownMotion else { return }
        let (id, index) = (current.id, current.index)
        switch motion {
        case .companion(let uri):
            video.playMotion(of: id, movieURI: uri, index: index, temporaryFile: nil)
            readTurns(of: uri, for: id)
        case .embedded(let movie):
            let owner = MainThreadOwner(self)
            images.jobs.run { flag in
                let copied = MotionMovieCopies.copy(from: id, movie: movie, cancellation: flag)
                owner.onMain { viewer in
                    guard let copied else { return }
                    guard viewer.current?.id == id else { return Thread.detachNewThread { MotionMovieCopies.remove(copied) } }
                    let uri = "file://" + (copied.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? copied)
                    viewer.video.playMotion(of: id, movieURI: uri, index: index, temporaryFile: copied)
                    viewer.readTurns(of: uri, for: id)
                }
            }
        }
    }

    /// The movie's rotation, read by a decoder process (a phone's portrait movie is stored
    /// turned): the player turns it once known.
    private func readTurns(of movieURI: String, for id: String) {
        let owner = MainThreadOwner(self)
        images.jobs.run { flag in
            guard case .success(let frame) = IsolatedDecoder.shared.decode(DecodeRequest(uri: movieURI, fitting: PixelSize(width: 64, height: 64)),
                                                                           cancellation: flag), frame.videoTurns != 0 else { return }
            owner.onMain { viewer in
                guard viewer.video.shownID == id, viewer.video.isMotion else { return }
                viewer.video.turn(by: frame.videoTurns)
            }
        }
    }
}
