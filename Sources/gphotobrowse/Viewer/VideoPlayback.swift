import CGtk
import PhotoCore

/// A video in the viewer, played by GTK's own media stack (GtkMediaFile: GStreamer through
/// libgtk-4-media-gstreamer), over the frame the decoder process made of it: the picture
/// fitted where the photo would be, and GTK's media controls (play and pause, the seek bar,
/// the volume with its mute) above the viewer's toolbar. It starts playing muted: sound only
/// once asked for. Paging away, or leaving the viewer, stops it.
///
/// GTK 4.8's player shows the frames as stored: a video whose container says to turn it (a
/// phone's portrait video) is turned here, each frame drawn turned into a picture of its own
/// (a render node over the frame's texture, not a copy of its pixels).
///
/// The picture takes no pointer events, so the viewer's own clicks, swipes and menus work
/// over a video as over a photo.
///
/// A Live Photo's or a motion photo's movie plays here too (`playMotion`), over its still,
/// without the controls, once through: the still shows again at its end.
@MainActor
final class VideoPlayback {
    private let live = LiveObjects.Token("VideoPlayback")
    private let picture: Widget
    private let controls: Widget
    private var stream: OwnedObject<OpaquePointer>?
    /// The stream's signal handlers, disconnected when it is let go.
    private var handlers: [UInt] = []
    /// The video shown, and whether its first frame was seen.
    private var playing: (id: String, index: Int, shown: Bool)?
    /// The movie played is a still's motion (`playMotion`), not a video.
    private(set) var isMotion = false
    /// A still's motion stopped (played to its end, paging away): the file it played.
    var onMotionStopped: (_ file: String) -> Void = { _ in }
    private var motionFile: String?
    /// Clockwise quarter turns the container asks for (the decoder process read them).
    private var turns = 0
    /// Why the video cannot be played, as GTK's media stack says.
    private(set) var failure: String?
    /// The stream's state changed (an error): the viewer says why.
    var onChange: () -> Void = {}
    /// A movie started or stopped showing (`shownID`).
    var onShownChanged: () -> Void = {}
    /// A video's first frame showed (not a still's movie): its index, its length in seconds
    /// (0 when not known).
    var onVideoStarted: (_ index: Int, _ seconds: Int) -> Void = { _, _ in }
    /// A video (not a still's movie) played to its end, or could not play: its index.
    var onVideoEnded: (_ index: Int) -> Void = { _ in }

    /// Adds the picture and the controls over `overlay` (a GtkOverlay holding the canvas,
    /// before the chrome's widgets, which stay on top).
    init(over overlay: Widget) {
        picture = gtk_picture_new()
        gtk_widget_set_can_target(picture, 0)
        gtk_widget_set_visible(picture, 0)
        LiveObjects.track(picture)
        controls = gtk_media_controls_new(nil)
        gtk_widget_add_css_class(controls, "osd")
        gtk_widget_add_css_class(controls, "video-controls")
        gtk_widget_set_valign(controls, GTK_ALIGN_END)
        gtk_widget_set_margin_start(controls, 48)
        gtk_widget_set_margin_end(controls, 48)
        gtk_widget_set_visible(controls, 0)
        for child in [picture, controls] { gtk_overlay_add_overlay(overlay.cast(), child) }
    }

    /// The video shown, if one is.
    var shownID: String? { playing?.id }

    /// Plays `photo` (at `index` in its album), muted, from its start.
    func play(_ photo: Photo, index: Int, turns: Int?) {
        play(id: photo.id, file: g_file_new_for_uri(photo.id), index: index, turns: turns, motion: false)
    }

    /// Plays the movie of the still `id` (at `index`), the file `movieURI`, once through,
    /// muted, without the controls; `temporaryFile` is handed to `onMotionStopped` once it
    /// is played.
    func playMotion(of id: String, movieURI: String, index: Int, temporaryFile: String?) {
        play(id: id, file: g_file_new_for_uri(movieURI), index: index, turns: nil, motion: true)
        motionFile = temporaryFile
    }

    private func play(id: String, file: OpaquePointer?, index: Int, turns: Int?, motion: Bool) {
        stop()
        self.turns = turns ?? 0
        isMotion = motion
        let media = OwnedObject(taking: OpaquePointer(gtk_media_file_new_for_file(file)!))
        g_object_unref(UnsafeMutableRawPointer(file))
        stream = media
        playing = (id, index, false)
        failure = nil
        let pointer = media.pointer
        gtk_media_stream_set_muted(pointer.cast(), 1)
        handlers = [
            onSignal(pointer, "invalidate-contents") { [weak self] in self?.frameShown(from: pointer) },
            onSignal(pointer, "notify::error", pointer: { [weak self] _ in self?.errorChanged(pointer) }),
            onSignal(pointer, "notify::playing", pointer: { [weak self] _ in self?.playingChanged(pointer) }),
            onSignal(pointer, "notify::ended", pointer: { [weak self] _ in self?.ended(pointer) }),
        ]
        gtk_picture_set_paintable(picture.cast(), self.turns == 0 ? pointer.cast() : nil)
        gtk_media_controls_set_media_stream(controls.cast(), motion ? nil : pointer.cast())
        gtk_widget_set_visible(picture, 1)
        gtk_widget_set_visible(controls, motion ? 0 : 1)
        gtk_media_stream_play(pointer.cast())
        onShownChanged()
    }

    /// Stops the video shown, if any, and lets its stream go.
    func stop() {
        guard let playing else { return }
        if let stream {
            gtk_media_stream_pause(stream.pointer.cast())
            for handler in handlers { g_signal_handler_disconnect(stream.pointer.raw, gulong(handler)) }
        }
        gtk_media_controls_set_media_stream(controls.cast(), nil)
        gtk_picture_set_paintable(picture.cast(), nil)
        gtk_widget_set_visible(picture, 0)
        gtk_widget_set_visible(controls, 0)
        let stopped = stream.map { gtk_media_stream_get_playing($0.pointer.cast()) == 0 } ?? true
        handlers = []
        stream = nil
        self.playing = nil
        failure = nil
        if let motionFile {
            self.motionFile = nil
            onMotionStopped(motionFile)
        }
        defer { onShownChanged() }
        if isMotion {
            isMotion = false
            return
        }
        if stopped { Trace.milestone("video-stopped", playing.index) }
    }

    /// A still's motion played to its end: the still shows again.
    private func ended(_ pointer: OpaquePointer) {
        guard stream?.pointer == pointer, gtk_media_stream_get_ended(pointer.cast()) != 0 else { return }
        guard isMotion else {
            if let playing { onVideoEnded(playing.index) }
            return
        }
        stop()
        onChange()
    }

    /// The container's rotation, once the decoder process has read it.
    func turn(by quarterTurns: Int) {
        guard quarterTurns != turns, let stream else { return }
        turns = quarterTurns
        if turns == 0 { gtk_picture_set_paintable(picture.cast(), stream.pointer.cast()) } else { showTurnedFrame(of: stream.pointer) }
    }

    /// The stream's current frame, turned by `turns`, as the picture's paintable.
    private func showTurnedFrame(of pointer: OpaquePointer) {
        let width = Float(gdk_paintable_get_intrinsic_width(pointer.cast()))
        let height = Float(gdk_paintable_get_intrinsic_height(pointer.cast()))
        guard width > 0, height > 0, let snapshot = gtk_snapshot_new() else { return }
        // Turned about the origin, then moved back into the positive quadrant.
        var origin = graphene_point_t(x: [0, height, width, 0][turns], y: [0, 0, height, width][turns])
        gtk_snapshot_translate(snapshot, &origin)
        gtk_snapshot_rotate(snapshot, Float(90 * turns))
        gdk_paintable_snapshot(pointer.cast(), snapshot, Double(width), Double(height))
        var size = turns % 2 == 1 ? graphene_size_t(width: height, height: width) : graphene_size_t(width: width, height: height)
        guard let turned = gtk_snapshot_free_to_paintable(snapshot, &size) else { return }
        gtk_picture_set_paintable(picture.cast(), turned)
        g_object_unref(UnsafeMutableRawPointer(turned))
    }

    /// Space: plays or pauses.
    func togglePlaying() {
        guard let stream else { return }
        let media: UnsafeMutablePointer<GtkMediaStream> = stream.pointer.cast()
        gtk_media_stream_set_playing(media, gtk_media_stream_get_playing(media) == 0 ? 1 : 0)
    }

    /// Where the picture and the controls lie: above the viewer's toolbar (`bottomInset`
    /// pixels), hidden while a swipe slides the photos.
    func layout(bottomInset: Double, sliding: Bool) {
        gtk_widget_set_margin_bottom(picture, Int32(bottomInset))
        gtk_widget_set_margin_bottom(controls, Int32(bottomInset) + 12)
        gtk_widget_set_opacity(picture, sliding ? 0 : 1)
    }

    private func frameShown(from pointer: OpaquePointer) {
        guard stream?.pointer == pointer else { return }
        if turns != 0 { showTurnedFrame(of: pointer) }
        guard let playing, !playing.shown, gdk_paintable_get_intrinsic_width(pointer.cast()) > 0 else { return }
        self.playing?.shown = true
        Trace.milestone(isMotion ? "motion-playing" : "video-playing", playing.index)
        if !isMotion {
            let microseconds = gtk_media_stream_get_duration(pointer.cast())
            onVideoStarted(playing.index, Int((microseconds + 999_999) / 1_000_000))
        }
    }

    /// Paused or playing again (Space, the controls' button), once the video has shown.
    private func playingChanged(_ pointer: OpaquePointer) {
        guard let playing, playing.shown, !isMotion, stream?.pointer == pointer else { return }
        let isPlaying = gtk_media_stream_get_playing(pointer.cast()) != 0
        Trace.milestone(isPlaying ? "video-resumed" : "video-paused", playing.index)
    }

    private func errorChanged(_ pointer: OpaquePointer) {
        guard stream?.pointer == pointer, let error = gtk_media_stream_get_error(pointer.cast()) else { return }
        failure = tr("The video cannot be played: %s", OutsideText(String(cString: error.pointee.message)))
        gtk_widget_set_visible(picture, 0)
        onChange()
        if !isMotion, let playing { onVideoEnded(playing.index) }
    }
}
