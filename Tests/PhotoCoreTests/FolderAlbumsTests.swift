import PhotoCore
import Testing

private let root = "file:///home/me/Pictures"

/// A folder `path` below the opened folder (empty: the opened folder itself).
private func folder(_ path: String...) -> TreeFolder {
    TreeFolder(uri: path.isEmpty ? root : root + "/" + path.joined(separator: "/"), path: path)
}

private func photo(_ name: String, in folder: TreeFolder, modified: Int64 = 1) -> Photo {
    Photo(id: folder.uri + "/" + name, displayName: name, modified: modified, size: 1, contentType: "image/jpeg")
}

/// The opened folder's albums fed from its tree, the model behind the app's `FolderSource`:
/// what a page is given when it is attached and as walks, monitors and dates go on.
@MainActor
@Suite struct FolderAlbumsTests {
    @Test func anAlbumAttachedGetsWhatWasFoundAndThenEachChange() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let trip = folder("Trip")
        albums.merge([FolderPhotos(folder: folder(), photos: [photo("a.jpg", in: folder())]),
                      FolderPhotos(folder: trip, photos: [photo("t1.jpg", in: trip)])])
        let all = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        let own = AlbumContents(id: .folder(trip.uri), order: .byName, source: nil)
        albums.attach(all)
        albums.attach(own)
        #expect(all.photos.count == 2 && own.photos.count == 1)
        #expect(!all.isListed)

        albums.merge([FolderPhotos(folder: trip, photos: [photo("t2.jpg", in: trip)])])
        #expect(all.photos.count == 3 && own.photos.count == 2)
        var listed: [Result<Int, FolderError>] = []
        own.onListed = { listed.append($0) }
        albums.finish(.success(3))
        #expect(albums.isListed && all.isListed && own.isListed)
        // Each album is listed with its own count, not the walk's.
        #expect(listed.count == 1)
        if case .success(let count) = listed.first { #expect(count == 2) } else { Issue.record("not listed") }

        // An album attached after the walk ended is listed at once.
        let late = AlbumContents(id: .folder(trip.uri), order: .byName, source: nil)
        albums.attach(late)
        #expect(late.isListed && late.photos.count == 2)
    }

    @Test func anAlbumLetGoIsFedNoMore() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        var album: AlbumContents? = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        albums.attach(album!)
        albums.attach(album!)
        #expect(albums.fed.count == 1)
        album = nil
        albums.merge([FolderPhotos(folder: folder(), photos: [photo("a.jpg", in: folder())])])
        #expect(albums.fed.isEmpty)
    }

    @Test func aRenamedPhotoIsAddedBeforeItsOldNameGoes() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let old = photo("a.jpg", in: folder())
        albums.merge([FolderPhotos(folder: folder(), photos: [old, photo("b.jpg", in: folder())])])
        let all = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        albums.attach(all)
        var splices: [PhotoList.Splice] = []
        all.observeChanges { splices.append($0) }
        let renamed = photo("c.jpg", in: folder())
        albums.renamed(from: old.id, to: renamed, in: folder())
        #expect(all.photos.all.map(\.displayName) == ["b.jpg", "c.jpg"])
        // The new name's splice first: whoever sees the old one go finds the new one there.
        #expect(splices.map(\.inserted) == [[renamed.id], []])
        #expect(splices.map(\.removedIDs) == [[], [old.id]])
    }

    @Test func aFolderGoneTakesItsPhotosAndItsAlbumAlong() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let trip = folder("Trip"), day = folder("Trip", "Day 1"), other = folder("Other")
        albums.merge([FolderPhotos(folder: trip, photos: [photo("t.jpg", in: trip)]),
                      FolderPhotos(folder: day, photos: [photo("d.jpg", in: day)]),
                      FolderPhotos(folder: other, photos: [photo("o.jpg", in: other)])])
        albums.finish(.success(3))
        let all = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        albums.attach(all)
        var switcherChanges = 0
        albums.onAlbumsChanged = { switcherChanges += 1 }
        #expect(albums.subfolderAlbumCount == 3)
        albums.update([], removed: [trip.uri], in: folder(), removedFolders: [trip.uri])
        #expect(all.photos.all.map(\.displayName) == ["o.jpg"])
        #expect(albums.subfolderAlbumCount == 1)
        #expect(albums.tree.summary(of: .folder(day.uri)) == nil)
        #expect(switcherChanges > 0)
    }

    @Test func photosRestoredGoBackIntoTheirFolderOnlyIfItIsKnown() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let trip = folder("Trip")
        albums.merge([FolderPhotos(folder: trip, photos: [photo("t.jpg", in: trip)])])
        let all = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        albums.attach(all)
        let back = photo("back.jpg", in: trip)
        let elsewhere = Photo(id: "file:///elsewhere/x.jpg", displayName: "x.jpg", modified: 1, size: 1, contentType: "image/jpeg")
        albums.restored([back, elsewhere], gone: [trip.uri + "/t.jpg"]) { $0.id.hasPrefix(trip.uri + "/") ? trip : nil }
        #expect(all.photos.all.map(\.displayName) == ["back.jpg"])
        #expect(albums.tree.folder(of: back.id) == trip)
    }

    @Test func datesReachTheTreeAndEveryAlbumAndOnlyDateSortedOnesNeedThem() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let a = photo("a.jpg", in: folder(), modified: 1), b = photo("b.jpg", in: folder(), modified: 2)
        albums.merge([FolderPhotos(folder: folder(), photos: [a, b])])
        let byName = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        let byDate = AlbumContents(id: .folder(root), order: .newestFirst, source: nil)
        albums.attach(byName)
        albums.attach(byDate)
        #expect(albums.sortedByDate.map(\.id) == [.folder(root)])
        #expect(byDate.photos.all.map(\.displayName) == ["b.jpg", "a.jpg"])
        albums.setDatesTaken([a.id: 100, b.id: 50])
        #expect(byDate.photos.all.map(\.displayName) == ["a.jpg", "b.jpg"])
        #expect(albums.tree.photo(id: a.id)?.dateTaken == 100)
    }

    /// The opened folder's tree with photos a (older) and b, its own album fed, newest first.
    private func twoPhotosNewestFirst() -> (FolderAlbums, AlbumContents, Photo, Photo) {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let a = photo("a.jpg", in: folder(), modified: 1), b = photo("b.jpg", in: folder(), modified: 2)
        albums.merge([FolderPhotos(folder: folder(), photos: [a, b])])
        let byDate = AlbumContents(id: .folder(root), order: .newestFirst, source: nil)
        albums.attach(byDate)
        return (albums, byDate, a, b)
    }

    @Test func datesAppliedToCopiesAreTakenAsTheyAreWhenNothingChangedMeanwhile() async {
        let (albums, byDate, a, b) = twoPhotosNewestFirst()
        var splices: [PhotoList.Splice] = []
        byDate.observeChanges { splices.append($0) }
        let work = albums.datesWork([a.id: 100, b.id: 50])
        // Applied on another thread, as the window does; nothing shown changes until taken.
        let applied = await Task.detached { var work = work; work.apply(); return work }.value
        #expect(byDate.photos.all.map(\.displayName) == ["b.jpg", "a.jpg"])
        #expect(albums.tree.photo(id: a.id)?.dateTaken == nil)
        let before = byDate.generation
        albums.take(applied)
        #expect(byDate.photos.all.map(\.displayName) == ["a.jpg", "b.jpg"])
        #expect(albums.tree.photo(id: a.id)?.dateTaken == 100)
        #expect(splices.count == 1 && byDate.generation != before)
    }

    @Test func datesAppliedToCopiesOfWhatChangedMeanwhileAreAppliedAgainToWhatItIsNow() async {
        let (albums, byDate, a, b) = twoPhotosNewestFirst()
        let work = albums.datesWork([a.id: 100, b.id: 50])
        let applied = await Task.detached { var work = work; work.apply(); return work }.value
        // A photo found while the dates were applied: the copies lack it.
        let c = photo("c.jpg", in: folder(), modified: 75)
        albums.merge([FolderPhotos(folder: folder(), photos: [c])])
        albums.take(applied)
        #expect(byDate.photos.all.map(\.displayName) == ["a.jpg", "c.jpg", "b.jpg"])
        #expect(albums.tree.photo(id: a.id)?.dateTaken == 100 && albums.tree.photo(id: c.id) != nil)

        // Only an album changed (a search, a sort): it gets the dates, the tree is taken.
        let d = photo("d.jpg", in: folder(), modified: 3)
        albums.merge([FolderPhotos(folder: folder(), photos: [d])])
        let again = albums.datesWork([d.id: 200])
        let appliedAgain = await Task.detached { var work = again; work.apply(); return work }.value
        byDate.sort(by: .byName)
        albums.take(appliedAgain)
        #expect(byDate.photos.all.map(\.displayName) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        #expect(byDate.photos.photo(id: d.id)?.dateTaken == 200 && albums.tree.photo(id: d.id)?.dateTaken == 200)
    }

    @Test func aWebAlbumIsRetitledOnlyBeforeAnyPhotoIsFound() {
        let albums = FolderAlbums(rootURI: "https://example.org/list.json", rootName: "list.json")
        #expect(albums.retitle("Holidays"))
        #expect(albums.tree.rootName == "Holidays")
        #expect(!albums.retitle(""))
        albums.merge([FolderPhotos(folder: TreeFolder(uri: "https://example.org/list.json", path: []),
                                   photos: [Photo(id: "https://example.org/a.jpg", displayName: "a.jpg", modified: 0, size: 1, contentType: "image/jpeg")])])
        #expect(!albums.retitle("Something else"))
        #expect(albums.tree.rootName == "Holidays")
    }
}

/// What walks deliver, merged a slice at a time, one merge at a time.
@Suite struct MergeQueueTests {
    private func photos(_ count: Int) -> [FolderPhotos] {
        [FolderPhotos(folder: folder(), photos: (0..<count).map { photo("p\($0).jpg", in: folder()) })]
    }

    @Test func aDeliveryStartsOneMergeOfSlicesThenTheEnd() {
        var queue = MergeQueue<String>(sliceSize: 2)
        let checked141 = queue.add(photos(5), end: "walk")
        #expect(checked141)
        #expect(queue.isMerging)
        // A delivery while the merge runs joins it rather than starting another.
        let checked144 = !queue.add(photos(1))
        #expect(checked144)
        var steps: [String] = []
        while let step = queue.next() {
            switch step {
            case .photos(let slice): steps.append("\(slice.reduce(0) { $0 + $1.photos.count })")
            case .end(let end): steps.append(end)
            }
            if !queue.isMerging { break }
        }
        #expect(steps == ["2", "2", "1", "walk", "1"])
        #expect(!queue.isMerging && queue.isEmpty)
        // The next delivery starts a merge again; an empty one does not.
        let checked156 = !queue.add([])
        #expect(checked156)
        let checked157 = queue.add([], end: "later")
        #expect(checked157)
    }

    @Test func theMergeEndsWithItsLastStep() {
        var queue = MergeQueue<Int>()
        let checked162 = queue.add(photos(1))
        #expect(checked162)
        #expect(queue.next() != nil)
        #expect(!queue.isMerging)
        let checked165 = queue.add(photos(1))
        #expect(checked165)
        queue.removeAll()
        #expect(!queue.isMerging && queue.next() == nil)
        let checked168 = queue.add(photos(1))
        #expect(checked168)
    }
}

/// The folders of the opened tree followed on disk.
@Suite struct FollowedTreeTests {
    @Test func aFolderIsFollowedOnceAndNoMoreThanTheMaximum() {
        var tree = FollowedTree<String>(maximum: 2)
        #expect(tree.admission(of: folder()) == .follow)
        tree.add(folder(), monitor: "root")
        #expect(tree.admission(of: folder()) == .followed)
        tree.add(folder("a"), monitor: "a")
        #expect(tree.admission(of: folder("b")) == .full)
        #expect(tree.folder(at: folder("a").uri) == folder("a"))
        #expect(FollowedTree<String>.maximum == 4096)
    }

    @Test func aFolderGoneStopsItsMonitorAndThoseBelowItButNotItsNamesakes() {
        var tree = FollowedTree<String>()
        for path in [["a"], ["a", "b"], ["a", "b", "c"], ["ab"], ["x"]] {
            tree.add(TreeFolder(uri: root + "/" + path.joined(separator: "/"), path: path), monitor: path.joined(separator: "/"))
        }
        let gone = tree.remove([root + "/a", root + "/x/photo.jpg"])
        #expect(gone.folders == [root + "/a"])
        #expect(gone.monitors.sorted() == ["a", "a/b", "a/b/c"])
        #expect(tree.isFollowed(root + "/ab") && tree.isFollowed(root + "/x"))
        #expect(tree.count == 2)
        #expect(tree.removeAll().sorted() == ["ab", "x"])
        #expect(tree.count == 0)
    }

    @Test func aFoldersChildrenAreThoseDirectlyInItAndAFolderBelowIsNotANamesake() {
        var tree = FollowedTree<String>()
        for path in [[], ["a"], ["a", "b"], ["a", "b", "c"], ["ab"]] {
            tree.add(folder(path: path), monitor: path.joined(separator: "/"))
        }
        #expect(tree.children(of: root) == [root + "/a", root + "/ab"])
        #expect(tree.children(of: root + "/a") == [root + "/a/b"])
        #expect(Set(tree.folders(atOrBelow: root + "/a").map(\.uri)) == [root + "/a", root + "/a/b", root + "/a/b/c"])
        #expect(tree.folders(atOrBelow: root).count == 5)
    }
}

private func folder(path: [String]) -> TreeFolder {
    TreeFolder(uri: path.isEmpty ? root : root + "/" + path.joined(separator: "/"), path: path)
}
