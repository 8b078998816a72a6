import PhotoCore

/// An image the viewer holds: the version of the photo it was decoded from, and whether it
/// is the photo at full resolution (decoded for a zoom past the fit).
public protocol ViewerHeldImage {
    var version: PhotoVersion { get }
    var isFullResolution: Bool { get }
}

/// Work under way for the viewer (a decode, a download), which can be called off.
public protocol CancellableWork {
    func cancel()
}

/// A decode the viewer's images ask for: a photo at display size, or at full resolution.
public struct ViewerDecode: Sendable, Equatable {
    /// How large the decode is: the viewer's display box, or the size given.
    public enum Size: Sendable, Equatable {
        case display
        case fullResolution(PixelSize)
    }

    public let photo: Photo
    public let size: Size
    /// Higher first: the shown photo, then its nearest neighbours.
    public let priority: Int

    public init(photo: Photo, size: Size, priority: Int) {
        self.photo = photo
        self.size = size
        self.priority = priority
    }

    /// Whether this is the shown photo's full-resolution decode, which replaces its
    /// display-size image and leaves an animation's frames alone.
    public var isFullResolution: Bool { if case .fullResolution = size { true } else { false } }
}

/// The viewer's images as data: which photos' images are held (the shown photo and its
/// neighbours, `NeighbourTracker`), which are being decoded, which failed, which web photos'
/// originals are downloading, and what a change to the folder makes stale.
///
/// The app's `ViewerImages` keeps one on the main thread: it runs the decodes this asks for
/// (`start`, given at init, returns the work to cancel) and hands back what they made
/// (`finished`). At most the neighbour window's display-size images are held, plus one
/// full-resolution image and one photo decoded ahead outside the window (`preload`).
///
/// ```swift
/// let set = ViewerImageSet<Image, Work>(start: { decode in run(decode) })
/// set.move(to: "b", in: list)          // asks for b, then c, then a
/// set.finished(b, fullResolution: false) { .success(image) }
/// ```
public final class ViewerImageSet<Image: ViewerHeldImage, Work: CancellableWork> {
    private var tracker: NeighbourTracker
    private let start: (ViewerDecode) -> Work
    /// The images decoded, by photo id.
    public private(set) var images: [String: Image] = [:]
    private var failures: [String: (version: PhotoVersion, failure: DecodeFailure)] = [:]
    private var inFlight: [String: (version: PhotoVersion, work: Work)] = [:]
    private var sharper: (version: PhotoVersion, work: Work)?
    /// A photo decoded ahead outside the neighbour window (a slideshow about to loop back to
    /// the first photo), until the window takes it in or the next move lets it go.
    private var extra: String?
    /// Web photos whose originals are downloading, and how far they have come.
    public private(set) var downloads: [String: DownloadProgress] = [:]
    /// Web photos whose download failed in a way that trying again may mend (the server
    /// could not be reached, failed, or broke off).
    public private(set) var retryable: Set<String> = []
    /// The photo and order the neighbour window was last moved to.
    public private(set) var shownCurrent: String?
    private var shownList: PhotoList?

    /// Holds `radius` neighbours on each side of the shown photo; `start` runs a decode.
    public init(radius: Int = 1, start: @escaping (ViewerDecode) -> Work) {
        tracker = NeighbourTracker(window: NeighbourWindow(radius: radius))
        self.start = start
    }

    // MARK: What is there

    /// The photo ids the neighbour window holds (asked for, whether or not decoded yet).
    public var held: Set<String> { tracker.held }

    /// Why the photo's image could not be made, if it could not.
    public func failure(for id: String) -> DecodeFailure? { failures[id]?.failure }

    /// Whether the photo's image is here, or its failure: nothing more will come for it.
    public func isSettled(_ id: String) -> Bool { images[id] != nil || failures[id] != nil }

    /// Whether a decode (display size or full resolution) of the photo is under way.
    public func isLoading(_ id: String) -> Bool { inFlight[id] != nil || sharper?.version.id == id }

    // MARK: Moving

    /// Makes `current` the shown photo of `list`: asks for what the window now wants and lets
    /// go of what it no longer does.
    public func move(to current: String?, in list: PhotoList) {
        apply(tracker.move(to: current, in: list), current: current, list: list)
    }

    /// Decodes `photo` at full resolution (`size`), replacing its display-size image when done.
    /// Only one photo holds a full-resolution image: asking for another drops the first.
    public func sharpen(_ photo: Photo, to size: PixelSize) {
        if sharper?.version == photo.version { return }
        dropSharper()
        let work = start(ViewerDecode(photo: photo, size: .fullResolution(size), priority: Int.max))
        sharper = (photo.version, work)
    }

    /// Decodes `photo` at display size ahead of showing it, though it is outside the
    /// neighbour window; held until the window takes it in, or the next move or preload
    /// lets it go.
    public func preload(_ photo: Photo) {
        guard !photo.isNotFound, !tracker.held.contains(photo.id), images[photo.id] == nil, inFlight[photo.id] == nil else { return }
        dropExtra()
        extra = photo.id
        load(photo, priority: 50)
    }

    /// Drops what was decoded from an older version of a photo the list now holds in a new
    /// one (rewritten on disk), with its decodes under way, and decodes the new one. Returns
    /// whether `current`'s image was among them.
    @discardableResult
    public func followChanges(in list: PhotoList, current: String?) -> Bool {
        let isStale = { (id: String, version: PhotoVersion) in list.photo(id: id).map { $0.version != version } ?? false }
        var stale = Set(images.filter { isStale($0.key, $0.value.version) }.keys)
        stale.formUnion(failures.filter { isStale($0.key, $0.value.version) }.keys)
        stale.formUnion(inFlight.filter { isStale($0.key, $0.value.version) }.keys)
        if let sharper, isStale(sharper.version.id, sharper.version) { stale.insert(sharper.version.id) }
        guard !stale.isEmpty else { return false }
        for id in stale {
            if let pending = inFlight.removeValue(forKey: id) { pending.work.cancel() }
            if sharper?.version.id == id { dropSharper() }
            images[id] = nil
            failures[id] = nil
            tracker.forget(id)
        }
        move(to: current, in: list)
        return current.map(stale.contains) ?? false
    }

    /// Tries a failed photo again (Retry).
    public func retry(_ id: String, current: String?, in list: PhotoList) {
        failures[id] = nil
        retryable.remove(id)
        tracker.forget(id)
        move(to: current, in: list)
    }

    /// Lets go of every image and decode (the viewer closed).
    public func stop() {
        for pending in inFlight.values { pending.work.cancel() }
        inFlight.removeAll()
        if let sharper { sharper.work.cancel() }
        sharper = nil
        images.removeAll()
        failures.removeAll()
        extra = nil
        tracker.releaseAll()
        shownCurrent = nil
        shownList = nil
        downloads.removeAll()
    }

    // MARK: Results

    /// What became of a decode's result.
    public enum Outcome: Equatable {
        /// Nobody waits for it any more: it was dropped.
        case dropped
        /// The image is held.
        case held
        /// The photo failed; `retryLater`: the failure may pass (a decode that timed out on a
        /// busy machine, or found no decoder process): call `retryIfStillFailed` in a while.
        case failed(retryLater: Bool)
    }

    /// A decode of `version` ended; `result` (called only if someone still waits for it)
    /// makes its image. A full-resolution decode that fails leaves the display-size image.
    @discardableResult
    public func finished(_ version: PhotoVersion, fullResolution: Bool, _ result: () -> Result<Image, DecodeFailure>) -> Outcome {
        let id = version.id
        if fullResolution {
            guard sharper?.version == version else { return .dropped }
            sharper = nil
        } else {
            guard inFlight[id]?.version == version else { return .dropped }
            inFlight[id] = nil
        }
        switch result() {
        case .success(let image):
            images[id] = image
            failures[id] = nil
            return .held
        case .failure(let failure):
            guard !fullResolution else { return .failed(retryLater: false) }
            failures[id] = (version, failure)
            return .failed(retryLater: failure.kind == .timedOut || failure.kind == .unavailable)
        }
    }

    /// Tries `version` again if it still failed and is still wanted (the `retryLater` of
    /// `finished`). Returns whether it did.
    @discardableResult
    public func retryIfStillFailed(_ version: PhotoVersion) -> Bool {
        guard failures[version.id]?.version == version, tracker.held.contains(version.id), inFlight[version.id] == nil,
              let list = shownList else { return false }
        failures[version.id] = nil
        tracker.forget(version.id)
        move(to: shownCurrent, in: list)
        return true
    }

    // MARK: Downloads

    /// A web photo's original started downloading; false when it was already said to.
    @discardableResult
    public func downloadStarted(_ id: String) -> Bool {
        guard downloads[id] == nil else { return false }
        downloads[id] = DownloadProgress(received: 0, total: nil)
        return true
    }

    /// A download moved on; false when the photo is not being loaded, or is here already.
    @discardableResult
    public func downloadProgressed(_ id: String, _ progress: DownloadProgress) -> Bool {
        guard isLoading(id), images[id] == nil else { return false }
        downloads[id] = progress
        return true
    }

    /// A download ended: whether it was shown as under way, and whether the photo is still
    /// being loaded (then it is on this computer now, unless it failed).
    public func downloadEnded(_ id: String, failed: Bool = false, canRetry: Bool = false) -> (wasShown: Bool, isWanted: Bool) {
        if failed, canRetry { retryable.insert(id) }
        return (downloads.removeValue(forKey: id) != nil, isLoading(id))
    }

    // MARK: Applying the window

    private func apply(_ plan: FullImagePlan, current: String?, list: PhotoList) {
        shownCurrent = current
        shownList = list
        dropExtra()
        for id in plan.release { drop(id) }
        if let sharper, sharper.version.id != current {
            dropSharper()
            // Its full-resolution image goes; a neighbour still wants a display-size one.
            if tracker.held.contains(sharper.version.id), let photo = list.photo(id: sharper.version.id) { load(photo, priority: 50) }
        }
        for (n, id) in plan.load.enumerated() where images[id] == nil && inFlight[id] == nil {
            // A photo not found (an album of the person's own) has nothing to decode.
            guard let photo = list.photo(id: id), !photo.isNotFound else { continue }
            load(photo, priority: id == current ? 1_000_000_000 : 100 - n)
        }
    }

    private func drop(_ id: String) {
        if let pending = inFlight.removeValue(forKey: id) { pending.work.cancel() }
        downloads[id] = nil
        retryable.remove(id)
        images[id] = nil
        failures[id] = nil
    }

    private func dropExtra() {
        guard let id = extra else { return }
        extra = nil
        guard !tracker.held.contains(id) else { return }
        drop(id)
    }

    private func load(_ photo: Photo, priority: Int) {
        if images[photo.id]?.isFullResolution == true { images[photo.id] = nil }
        let work = start(ViewerDecode(photo: photo, size: .display, priority: priority))
        inFlight[photo.id] = (photo.version, work)
    }

    private func dropSharper() {
        guard let sharper else { return }
        sharper.work.cancel()
        self.sharper = nil
        if images[sharper.version.id]?.isFullResolution == true { images[sharper.version.id] = nil }
    }
}
