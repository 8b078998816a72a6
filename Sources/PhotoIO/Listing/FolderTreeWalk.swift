import CGdkPixbuf
import Foundation
import PhotoCore

/// A folder below the opened one that the walk did not search, and why.
public struct SkippedFolder: Sendable {
    public enum Reason: Sendable, Equatable {
        /// Its name starts with a dot (`.thumbnails`, `.git`), as GNOME's apps hide them.
        case hidden
        /// It could not be listed (no permission, an I/O error), or not to its end.
        case unreadable
        /// A symbolic link (or bind mount) to a folder that holds it: following it would
        /// never end.
        case loop
        /// A second path (a symbolic link, a bind mount) to a folder already searched.
        case alreadyWalked
        /// A mount point: another drive or file system, not crossed (as `find -xdev`).
        case otherFileSystem
        /// Deeper than the walk's `maximumDepth`.
        case tooDeep
        /// A symbolic link on a location that cannot tell folders apart (some GVfs
        /// backends report no device and inode), so a loop could not be seen.
        case linkNotFollowed

        /// Whether the person may miss what such a folder holds, so the window says it was
        /// left out: not a hidden folder, a loop, or a second path to a folder searched.
        public var mayBeMissed: Bool { ![.hidden, .alreadyWalked, .loop].contains(self) }
    }

    public let folder: TreeFolder
    public let reason: Reason
    /// Why, in words for a person.
    public let message: String
}

/// Walks the tree below a folder (a GIO URI: local paths and GVfs locations), breadth
/// first, streaming each folder's photos as `FolderListing` lists them (the same reader:
/// types, `Photo` values, special files skipped without being opened).
///
/// What it searches, like `find -L -xdev` without its loops:
/// - every subfolder, level by level, so the top levels' albums come first;
/// - not hidden folders (a name starting with a dot);
/// - not mount points: a folder on another device than the opened folder;
/// - a symbolic link to a folder is followed once, after every real folder (so a link to a
///   folder inside the tree finds it already searched under its own path), when it leads
///   to a folder not yet searched on the same device; a link to a folder that holds it (or
///   holds the opened folder) is a loop and is left out. Folders are told apart by device
///   and inode, so no path, however linked or bind-mounted, is searched twice; on a location
///   that reports neither, links to folders are not followed.
///
/// Runs blocking GIO calls: call `run` on a worker thread, never on the main thread.
///
/// `@unchecked Sendable`: its only mutable state is a GCancellable, which GIO documents as
/// safe to cancel from any thread.
public final class FolderTreeWalk: @unchecked Sendable {
    public let uri: String
    /// How many folders down the walk goes below the opened folder.
    public let maximumDepth: Int
    private let cancellable: UnsafeMutablePointer<GCancellable>

    /// What a walk found: photos delivered, folders read (the opened one included) and
    /// folders left out.
    public struct Totals: Sendable, Equatable {
        public let photos: Int
        public let folders: Int
        public let skippedFolders: Int

        public init(photos: Int, folders: Int, skippedFolders: Int) {
            self.photos = photos
            self.folders = folders
            self.skippedFolders = skippedFolders
        }
    }

    public init(uri: String, maximumDepth: Int = 100) {
        self.uri = uri
        self.maximumDepth = maximumDepth
        cancellable = g_cancellable_new()
    }

    deinit { g_object_unref(cancellable) }

    /// Stops a walk in progress; `run` returns soon after and delivers nothing more.
    public func cancel() { g_cancellable_cancel(cancellable) }

    public var isCancelled: Bool { g_cancellable_is_cancelled(cancellable) != 0 }

    /// A folder to read: where it is, what tells it apart, and the folder it was found in
    /// (an index into the walk's folders), for seeing loops.
    private struct Node {
        let folder: TreeFolder
        let identity: FileIdentity?
        let parent: Int?
    }

    /// Walks the tree.
    ///
    /// - `deliver` gets photos, grouped by the folder they are directly in (the opened
    ///   folder's with the URI it was given and an empty path). The first delivery goes out
    ///   as soon as the first folder with photos is read (or 64 photos are found), later
    ///   ones at doubling intervals from `interval` to `maximumInterval`, each with whatever
    ///   was found meanwhile, in walk order: a 50,000-photo tree arrives in a dozen
    ///   deliveries. A folder's photos may be split across deliveries.
    /// - `found` gets each subfolder the walk will read, before any of its photos.
    /// - `skipFolder` gets each folder left out (also a found one that then cannot be read).
    /// - `skip` gets each file left out, with the folder it is in.
    ///
    /// Fails only when the opened folder itself cannot be read (with `FolderListing`'s
    /// messages); returns what was found, also when cancelled.
    public func run(
        interval: Double = 0.1,
        maximumInterval: Double = 1.0,
        deliver: ([FolderPhotos]) -> Void,
        found: (TreeFolder) -> Void = { _ in },
        skipFolder: (SkippedFolder) -> Void = { _ in },
        skip: (TreeFolder, SkippedEntry) -> Void = { _, _ in }
    ) -> Result<Totals, FolderError> {
        let rootFile = g_file_new_for_uri(uri)
        defer { unref(rootFile) }
        let rootIdentity = FileIdentity(of: rootFile, cancellable: cancellable)
        let aboveRoot = Self.identitiesAbove(rootFile, cancellable: cancellable)

        var nodes = [Node(folder: TreeFolder(uri: uri, path: []), identity: rootIdentity, parent: nil)]
        var searched: Set<FileIdentity> = rootIdentity.map { [$0] } ?? []
        var folderQueue = [0], nextFolder = 0
        var linkQueue: [Int] = [], nextLink = 0

        var pacing = DeliveryPacing(interval: interval, maximumInterval: maximumInterval)
        var pending: [FolderPhotos] = []
        var current: [Photo] = []
        var pendingCount = 0
        var delivered = 0, foldersRead = 0, skipped = 0

        func flush(_ folder: TreeFolder, now: Double) {
            if !current.isEmpty {
                pending.append(FolderPhotos(folder: folder, photos: current))
                current = []
            }
            guard pendingCount > 0, !isCancelled else { return }
            deliver(pending)
            delivered += pendingCount
            pending = []
            pendingCount = 0
            pacing.delivered(now: now)
        }

        func leaveOut(_ folder: TreeFolder, _ reason: SkippedFolder.Reason, _ message: String? = nil) {
            skipped += 1
            skipFolder(SkippedFolder(folder: folder, reason: reason, message: message ?? explain(reason)))
        }

        /// Whether `identity` is the folder at `index` or one holding it, in the tree or above it.
        func holds(_ identity: FileIdentity, from index: Int) -> Bool {
            var at: Int? = index
            while let i = at {
                if nodes[i].identity == identity { return true }
                at = nodes[i].parent
            }
            return aboveRoot.contains(identity)
        }

        func consider(_ entry: FolderListing.SubfolderEntry, in parentIndex: Int) {
            let child = nodes[parentIndex].folder.child(uri: entry.uri, name: entry.displayName)
            if entry.name.hasPrefix(".") {
                return leaveOut(child, .hidden)
            }
            let tooDeep = child.path.count > maximumDepth
            if entry.isMountable {
                return leaveOut(child, .otherFileSystem)
            }
            guard let identity = entry.identity, let rootIdentity else {
                if entry.isSymlink {
                    return leaveOut(child, .linkNotFollowed)
                }
                if tooDeep { return leaveOut(child, .tooDeep) }
                nodes.append(Node(folder: child, identity: nil, parent: parentIndex))
                folderQueue.append(nodes.count - 1)
                return found(child)
            }
            if entry.isSymlink && holds(identity, from: parentIndex) {
                return leaveOut(child, .loop)
            }
            if identity.device != rootIdentity.device {
                return leaveOut(child, .otherFileSystem)
            }
            if !entry.isSymlink && holds(identity, from: parentIndex) {
                return leaveOut(child, .loop)
            }
            if searched.contains(identity) {
                return leaveOut(child, .alreadyWalked)
            }
            if tooDeep { return leaveOut(child, .tooDeep) }
            nodes.append(Node(folder: child, identity: identity, parent: parentIndex))
            if entry.isSymlink {
                // Followed once the real folders are searched: it may lead to one of them.
                linkQueue.append(nodes.count - 1)
            } else {
                searched.insert(identity)
                folderQueue.append(nodes.count - 1)
                found(child)
            }
        }

        while !isCancelled {
            let index: Int
            if nextFolder < folderQueue.count {
                index = folderQueue[nextFolder]
                nextFolder += 1
            } else if nextLink < linkQueue.count {
                index = linkQueue[nextLink]
                nextLink += 1
                if let identity = nodes[index].identity {
                    guard !searched.contains(identity) else {
                        leaveOut(nodes[index].folder, .alreadyWalked)
                        continue
                    }
                    searched.insert(identity)
                }
                found(nodes[index].folder)
            } else {
                break
            }

            let folder = nodes[index].folder
            let file = g_file_new_for_uri(folder.uri)
            defer { unref(file) }
            let end = FolderListing.read(folder: file, cancellable: cancellable, photo: { photo in
                current.append(photo)
                pendingCount += 1
                // The clock is read every 64 photos (read for each, it took 2% of a walk).
                guard pendingCount % 64 == 0 else { return }
                let now = Date.timeIntervalSinceReferenceDate
                if pacing.isDue(now: now) { flush(folder, now: now) }
            }, subfolder: { entry in
                consider(entry, in: index)
            }, skip: { entry in
                skip(folder, entry)
            })
            switch end {
            case .finished, .cancelled:
                foldersRead += 1
            case .unopened(let error):
                if folder.isRoot { return .failure(error) }
                leaveOut(folder, .unreadable, error.message)
            case .brokenOff(let message):
                let text = tr("Could not list the folder: %s", message)
                if folder.isRoot { return .failure(FolderError(message: text)) }
                foldersRead += 1
                leaveOut(folder, .unreadable, text)
            }
            let now = Date.timeIntervalSinceReferenceDate
            if pacing.isDue(now: now) { flush(folder, now: now) } else if !current.isEmpty {
                pending.append(FolderPhotos(folder: folder, photos: current))
                current = []
            }
        }
        if !pending.isEmpty { flush(nodes[0].folder, now: Date.timeIntervalSinceReferenceDate) }
        return .success(Totals(photos: delivered, folders: foldersRead, skippedFolders: skipped))
    }

    /// Why a folder is left out, in words for a person (an unreadable one says what GIO said).
    private func explain(_ reason: SkippedFolder.Reason) -> String {
        switch reason {
        case .hidden: tr("Hidden folder: not searched")
        case .unreadable: tr("The folder could not be opened.")
        case .loop: tr("A link back to a folder that holds it: not followed")
        case .alreadyWalked: tr("The same folder as one already searched: not searched twice")
        case .otherFileSystem: tr("On another drive or file system: not searched")
        case .tooDeep: tr("More than %d folders deep: not searched", maximumDepth)
        case .linkNotFollowed: tr("A link to another folder: not followed on this location")
        }
    }

    /// The identities of the folders holding `file` (its parent, up to the top): a link to
    /// one of them would walk the opened folder again, and everything beside it.
    private static func identitiesAbove(_ file: OpaquePointer?, cancellable: UnsafeMutablePointer<GCancellable>?) -> Set<FileIdentity> {
        var identities = Set<FileIdentity>()
        var parent = g_file_get_parent(file)
        while let folder = parent {
            if let identity = FileIdentity(of: folder, cancellable: cancellable) { identities.insert(identity) }
            parent = g_file_get_parent(folder)
            unref(folder)
        }
        return identities
    }
}
