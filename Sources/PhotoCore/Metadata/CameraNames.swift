import Foundation

/// Camera names as photos carry them: one string per camera for the whole app, not one per
/// photo. A folder of 100,000 photos from a handful of cameras held 100,000 copies of a few
/// names (about 5 MB), read from the decoders' replies and the photo index.
public enum CameraNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: Set<String> = []
    /// Past this many names (files that each name a camera of their own) new ones are kept as
    /// they come: the table holds at most this many.
    static let most = 4_096

    /// `name`, as the one string every photo of that camera shares.
    public static func shared(_ name: String) -> String {
        // Names of up to 15 bytes are held inside the string itself: nothing to share.
        guard name.utf8.count > 15 else { return name }
        return lock.withLock {
            if let kept = known.firstIndex(of: name) { return known[kept] }
            guard known.count < most else { return name }
            known.insert(name)
            return name
        }
    }
}
