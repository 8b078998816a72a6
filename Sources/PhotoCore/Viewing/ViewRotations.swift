/// The viewer's rotation of each photo: a view setting, kept per photo while its folder is
/// open, in clockwise quarter turns; the files are untouched.
///
/// When a rotation is saved into the photo's file, the view's rotation gives way to the
/// file's once the album lists the file's new version: whichever comes first, the save's
/// answer (`saved(_:listed:)`) or the folder's monitor reporting the rewritten file
/// (`listed(_:)`). Either order drops it exactly once, so the photo is never turned twice.
public struct ViewRotations: Sendable, Equatable {
    private var turns: [String: Int] = [:]
    /// Photos whose rotation was saved, by the version that was turned, until the album lists
    /// another version of them.
    private var savedFrom: [String: PhotoVersion] = [:]

    public init() {}

    /// The photo's rotation as turned in the view (any integer; see `shown(_:)`).
    public subscript(id: String) -> Int {
        get { turns[id] ?? 0 }
        set { turns[id] = newValue == 0 ? nil : newValue }
    }

    /// The photo's rotation, 0...3 clockwise quarter turns.
    public func shown(_ id: String) -> Int { ((self[id] % 4) + 4) % 4 }

    /// The photo was renamed: its rotation follows it.
    public mutating func rename(_ old: String, to new: String) {
        turns[new] = turns.removeValue(forKey: old)
        savedFrom[new] = savedFrom.removeValue(forKey: old)
    }

    /// The rotation of `version` was saved into its file; `listed` is the version the album
    /// lists now. Returns whether the view's rotation was dropped now (the album already
    /// lists the file as rewritten: its monitor told of it before the save answered).
    public mutating func saved(_ version: PhotoVersion, listed: PhotoVersion?) -> Bool {
        savedFrom[version.id] = version
        guard let listed else { return false }
        return self.listed(listed)
    }

    /// The album lists `version` of a photo. Returns whether the view's rotation was dropped
    /// (its saved rotation is now in the file this version is).
    public mutating func listed(_ version: PhotoVersion) -> Bool {
        guard let turned = savedFrom[version.id], turned != version else { return false }
        savedFrom[version.id] = nil
        turns[version.id] = nil
        return true
    }
}
