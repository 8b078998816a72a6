import CGtk

/// Plays an animated photo's frames in the viewer, each for its own duration, looping when
/// the file says so.
@MainActor
final class AnimationPlayback {
    private var timer: UInt32 = 0
    /// The frame to show.
    private(set) var frame = 0

    /// Starts (or goes on) playing the image `current` returns (nil once it is no longer
    /// shown, which stops the playback); `advanced` runs after each step.
    func play(_ current: @escaping @MainActor () -> ViewerImage?, advanced: @escaping @MainActor () -> Void) {
        guard timer == 0, let image = current(), image.frames.count > 1 else { return }
        let duration = image.frames[min(frame, image.frames.count - 1)].duration
        timer = after(milliseconds: UInt32(max(duration, 0))) { [weak self] in
            guard let self else { return }
            self.timer = 0
            guard let image = current(), !image.frames.isEmpty else { return }
            if self.frame + 1 < image.frames.count {
                self.frame += 1
            } else if image.loops {
                self.frame = 0
            } else {
                return
            }
            advanced()
            self.play(current, advanced: advanced)
        }
    }

    /// Stops, back at the first frame.
    func stop() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
        frame = 0
    }
}
