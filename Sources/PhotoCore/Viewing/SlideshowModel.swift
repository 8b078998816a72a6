/// A slideshow's timing and state, driven by events: no clock inside.
///
/// The app feeds it what happens — the interval ran out (`tick`), a photo's image is decoded
/// (`imageReady`), Space (`togglePause`), any other key or a click (`stop`), the album changed
/// (`follow`) — and carries out the effects each event returns, in order: show a photo,
/// (re)start or stop the interval's timer, make sure a photo is decoded and say when it is,
/// say the slideshow paused or resumed, end it.
///
/// A photo is shown for at least one interval, a video for its length (from its first frame:
/// `movieStarted`), and the next one only once its image is decoded: when the interval runs out first, the slideshow waits for it, so no transition
/// shows a blank or a thumbnail. At the end it starts again from the first photo (`.loop`)
/// or ends on the last one (`.stop`).
///
/// ```swift
/// var show = SlideshowModel(count: 3, current: 0, interval: 5, ending: .stop)
/// show.start()          // [.show(0), .startTimer(seconds: 5), .preload(1)]
/// show.imageReady(1)    // []  (photo 1 is ready; its turn has not come)
/// show.tick()           // [.show(1), .startTimer(seconds: 5), .preload(2)]
/// show.tick()           // []  (photo 2 is not decoded yet: waiting)
/// show.imageReady(2)    // [.show(2), .startTimer(seconds: 5)]
/// show.tick()           // [.end(at: 2)]
/// ```
public struct SlideshowModel: Sendable, Equatable {
    /// What happens after the last photo.
    public enum Ending: String, Sendable, CaseIterable {
        /// Start again from the first photo.
        case loop
        /// End the slideshow on the last photo.
        case stop
    }

    public enum Phase: Sendable, Equatable {
        /// Made, not started.
        case ready
        /// The shown photo's interval is running.
        case playing
        /// The interval ran out before the next photo was decoded.
        case waitingForNext
        /// Space paused it; nothing advances until Space again.
        case paused
        /// Over: it will do nothing more.
        case ended
    }

    /// What the app does after an event, in the order given.
    public enum Effect: Sendable, Equatable {
        /// Show the photo at this index (and trace it).
        case show(Int)
        /// Start the interval's timer, replacing any running one; call `tick` when it fires.
        case startTimer(seconds: Int)
        /// Stop the interval's timer.
        case stopTimer
        /// Make sure the photo at this index is decoded; call `imageReady` when it is (at once
        /// when it already is).
        case preload(Int)
        /// Say on screen that the slideshow paused.
        case paused
        /// Say on screen that it goes on.
        case resumed
        /// The slideshow is over, on the photo at this index: leave it there.
        case end(at: Int)
    }

    /// The intervals a person chooses from, in seconds.
    public static let intervals = [2, 3, 5, 10, 30]
    /// The interval when none was chosen.
    public static let defaultInterval = 5

    /// The photo shown.
    public private(set) var current: Int
    /// How many photos there are.
    public private(set) var count: Int
    public private(set) var phase: Phase = .ready
    /// Seconds each photo shows; a change applies from the next photo on.
    public var interval: Int {
        didSet { interval = Self.clamped(interval) }
    }
    public let ending: Ending
    /// Whether the next photo's image is decoded.
    private var nextIsReady = false
    /// The shown video's length was not known: its end moves the slideshow on.
    private var awaitingMovieEnd = false

    /// A slideshow of `count` photos from `current`. The interval is kept between 1 s and an hour.
    public init(count: Int, current: Int, interval: Int = defaultInterval, ending: Ending = .loop) {
        self.count = max(0, count)
        self.current = min(max(current, 0), max(0, count - 1))
        self.interval = Self.clamped(interval)
        self.ending = ending
    }

    private static func clamped(_ seconds: Int) -> Int { min(max(seconds, 1), 3600) }

    /// Whether the slideshow has started and not ended.
    public var isRunning: Bool { phase != .ready && phase != .ended }

    /// The photo after the shown one: the first after the last when looping; nil at the end
    /// (or with one photo, which has nothing to loop to).
    public var next: Int? {
        if current + 1 < count { return current + 1 }
        return ending == .loop && count > 1 ? 0 : nil
    }

    /// Starts on the current photo.
    public mutating func start() -> [Effect] {
        guard phase == .ready else { return [] }
        guard count > 0 else {
            phase = .ended
            return [.end(at: current)]
        }
        phase = .playing
        return [.show(current), .startTimer(seconds: interval)] + preloadNext()
    }

    /// The shown photo's interval ran out: the next photo if it is decoded, else wait for
    /// it; at the end (`.stop`), the slideshow ends.
    public mutating func tick() -> [Effect] {
        guard phase == .playing else { return [] }
        guard next != nil else {
            phase = .ended
            return [.end(at: current)]
        }
        guard nextIsReady else {
            phase = .waitingForNext
            return []
        }
        return advance()
    }

    /// The photo at `index` is decoded (or cannot be: its failure shows, as in the viewer).
    public mutating func imageReady(_ index: Int) -> [Effect] {
        guard isRunning, index == next else { return [] }
        nextIsReady = true
        return phase == .waitingForNext ? advance() : []
    }

    /// The shown photo is a video whose first frame showed, `seconds` long: it shows for its
    /// length from now, at least an interval, before the next photo, as a video in a phone's
    /// photos app plays through. Its length not known (0), the slideshow waits for its end
    /// (`movieEnded`).
    public mutating func movieStarted(_ index: Int, seconds: Int) -> [Effect] {
        guard phase == .playing, index == current else { return [] }
        guard seconds > 0 else {
            awaitingMovieEnd = true
            return [.stopTimer]
        }
        return [.startTimer(seconds: max(interval, min(seconds, 3600)))]
    }

    /// The shown video played to its end (or could not play): when its length was not known,
    /// the slideshow goes on as when an interval runs out.
    public mutating func movieEnded(_ index: Int) -> [Effect] {
        guard awaitingMovieEnd, index == current else { return [] }
        awaitingMovieEnd = false
        return tick()
    }

    /// Space: pauses, or goes on with a whole interval for the photo shown.
    public mutating func togglePause() -> [Effect] {
        switch phase {
        case .playing, .waitingForNext:
            phase = .paused
            return [.stopTimer, .paused]
        case .paused:
            phase = .playing
            return [.resumed, .startTimer(seconds: interval)]
        case .ready, .ended:
            return []
        }
    }

    /// Any other key, or a click: ends on the photo shown.
    public mutating func stop() -> [Effect] {
        guard isRunning else { return [] }
        phase = .ended
        return [.stopTimer, .end(at: current)]
    }

    /// The album changed under the slideshow: the shown photo is at `current` of `count` now
    /// (nil: it is gone and nothing took its place). The next photo is asked for again,
    /// since another one may follow the shown photo now.
    public mutating func follow(current newCurrent: Int?, count newCount: Int) -> [Effect] {
        guard isRunning else { return [] }
        guard let newCurrent, newCount > 0 else {
            phase = .ended
            return [.stopTimer, .end(at: max(0, min(current, newCount - 1)))]
        }
        guard newCurrent != current || newCount != count else { return [] }
        current = min(max(newCurrent, 0), newCount - 1)
        count = newCount
        // Another photo may be next now, even at the same index: ask again.
        nextIsReady = false
        if phase == .waitingForNext && next == nil {
            phase = .ended
            return [.stopTimer, .end(at: current)]
        }
        return preloadNext()
    }

    private mutating func advance() -> [Effect] {
        guard let next else { return [] }
        awaitingMovieEnd = false
        current = next
        nextIsReady = false
        phase = .playing
        return [.show(current), .startTimer(seconds: interval)] + preloadNext()
    }

    private func preloadNext() -> [Effect] {
        next.map { [.preload($0)] } ?? []
    }
}
