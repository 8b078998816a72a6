import PhotoCore
import Testing

/// The person's own albums' photos looked up, fed to their pages, and their folders followed;
/// a folder's changes gathered and sorted: the models behind the app's `YourAlbums`,
/// `CollectionSource`, `CollectionFolders` and `FolderMonitor`.
@Suite struct AlbumPhotoLookupsTests {
    @Test func aPhotoIsLookedUpOnceAtATimeAndAgainWhenAskedMeanwhile() {
        var lookups = AlbumPhotoLookups()
        let result1 = lookups.request(["a", "b", "a"])
        #expect(result1 == ["a", "b"])
        #expect(lookups.isLookingUp("a") && !lookups.isKnown("a"))
        let result2 = lookups.request(["a", "c"])
        #expect(result2 == ["c"])  // a: again once its lookup ends
        let again = lookups.finished([(uri: "a", photo: photo("a.jpg", id: "a")), (uri: "b", photo: nil)])
        #expect(again == ["a"])
        #expect(lookups.photo("a")?.displayName == "a.jpg" && !lookups.isMissing("a"))
        #expect(lookups.isMissing("b") && lookups.photo("b") == nil && lookups.isKnown("b"))
        #expect(!lookups.isLookingUp("a") && lookups.isLookingUp("c"))
        let result3 = lookups.request(again)
        #expect(result3 == ["a"])
        let result4 = lookups.finished([(uri: "a", photo: photo("a.jpg", id: "a"))])
        #expect(result4.isEmpty)
    }

    @Test func aPhotoFoundAfterBeingMissingIsFoundAndTheOtherWayRound() {
        var lookups = AlbumPhotoLookups()
        _ = lookups.request(["a"])
        _ = lookups.finished([(uri: "a", photo: nil)])
        #expect(lookups.isMissing("a"))
        _ = lookups.request(["a"])
        _ = lookups.finished([(uri: "a", photo: photo("a.jpg", id: "a"))])
        #expect(!lookups.isMissing("a") && lookups.photo("a") != nil)
        _ = lookups.request(["a"])
        _ = lookups.finished([(uri: "a", photo: nil)])
        #expect(lookups.isMissing("a") && lookups.photo("a") == nil)
    }

    @Test func albumsReadAgainLookUpPhotosNeverSeenAndThoseThatJoined() {
        var lookups = AlbumPhotoLookups()
        let before = [PhotoCollection(id: "t", title: "Trip", photos: ["a", "b"], created: 0, modified: 0)]
        let result5 = lookups.albumsChanged(from: [], to: before)
        #expect(result5 == ["a", "b"])
        _ = lookups.request(["a", "b"])
        _ = lookups.finished([(uri: "a", photo: photo("a.jpg", id: "a")), (uri: "b", photo: nil)])
        // Unchanged: nothing to look up.
        let result6 = lookups.albumsChanged(from: before, to: before)
        #expect(result6.isEmpty)
        // b removed, then put back (Undo): looked up afresh, forgotten meanwhile.
        let without = [PhotoCollection(id: "t", title: "Trip", photos: ["a"], created: 0, modified: 1)]
        let result7 = lookups.albumsChanged(from: before, to: without)
        #expect(result7.isEmpty)
        let result8 = lookups.albumsChanged(from: without, to: before)
        #expect(result8 == ["b"])
        #expect(!lookups.isKnown("b") && lookups.photo("a") != nil)
        // A photo in two albums is looked up once; b, forgotten and not looked up since, again.
        let two = before + [PhotoCollection(id: "u", title: "Best", photos: ["c", "c", "a"], created: 0, modified: 0)]
        let result9 = lookups.albumsChanged(from: before, to: two)
        #expect(result9 == ["b", "c"])
    }

    @Test func summariesTakeTheNewestPhotoFoundAsCover() {
        var lookups = AlbumPhotoLookups()
        let albums = [PhotoCollection(id: "t", title: "Trip", photos: ["a", "b", "gone"], created: 0, modified: 0)]
        _ = lookups.request(["a", "b", "gone"])
        _ = lookups.finished([(uri: "a", photo: photo("a.jpg", modified: 5, id: "a")),
                              (uri: "b", photo: photo("b.jpg", modified: 9, id: "b")), (uri: "gone", photo: nil)])
        let summary = lookups.summaries(albums)[0]
        #expect(summary.id == .collection("t") && summary.count == 3 && summary.cover?.id == "b")
    }
}

@Suite struct CollectionFeedTests {
    @Test func photosFoundAreFedMissingOnesAsPlaceholdersPendingOnesNot() {
        var feed = CollectionFeed()
        let a = photo("a.jpg", id: "file:///p/a.jpg")
        let lookups: [String: CollectionFeed.Lookup] = ["file:///p/a.jpg": .found(a), "file:///p/My%20b.jpg": .missing, "file:///p/c.jpg": .pending]
        let change = feed.update(["file:///p/a.jpg", "file:///p/My%20b.jpg", "file:///p/c.jpg"]) { lookups[$0]! }
        #expect(change.changed.map(\.id) == ["file:///p/a.jpg", "file:///p/My%20b.jpg"])
        #expect(change.changed[1].isNotFound && change.changed[1].displayName == "My b.jpg")
        #expect(!change.isComplete && change.count == 2 && change.gone.isEmpty)
        #expect(feed.missing == ["file:///p/My%20b.jpg"])
        #expect(!a.isNotFound)
    }

    @Test func onlyWhatChangedIsFedAgain() {
        var feed = CollectionFeed()
        let a = photo("a.jpg", id: "a"), b = photo("b.jpg", id: "b")
        _ = feed.update(["a", "b"]) { $0 == "a" ? .found(a) : .found(b) }
        let same = feed.update(["a", "b"]) { $0 == "a" ? .found(a) : .found(b) }
        #expect(same.changed.isEmpty && same.gone.isEmpty && same.isComplete && same.count == 2)
        // b rewritten on disk, a gone missing, c added: each a new value.
        let newB = photo("b.jpg", modified: 7, id: "b"), c = photo("c.jpg", id: "c")
        let now: [String: CollectionFeed.Lookup] = ["a": .missing, "b": .found(newB), "c": .found(c)]
        let change = feed.update(["a", "b", "c"]) { now[$0]! }
        #expect(change.changed.map(\.id) == ["a", "b", "c"] && change.changed[0].isNotFound)
        #expect(feed.missing == ["a"])
        // Removed from the album: gone.
        let removed = feed.update(["c"]) { _ in .found(c) }
        #expect(removed.gone == ["a", "b"] && removed.changed.isEmpty && removed.count == 1)
    }

    @Test func aPhotoHeldTwiceIsFedOnce() {
        var feed = CollectionFeed()
        let change = feed.update(["a", "a"]) { _ in .found(photo("a.jpg", id: "a")) }
        #expect(change.changed.count == 1 && change.count == 1)
    }

    @Test func aPhotoForgottenIsFedAgain() {
        var feed = CollectionFeed()
        let a = photo("a.jpg", id: "a")
        _ = feed.update(["a"]) { _ in .found(a) }
        feed.forget(["a"])
        let change = feed.update(["a"]) { _ in .found(a) }
        #expect(change.changed == [a])
    }
}

@Suite struct FollowedFoldersTests {
    private func located(_ uri: String) -> FollowedFolders.Located {
        let folder = String(uri[..<uri.lastIndex(of: "/")!])
        return FollowedFolders.Located(uri: uri, folder: folder, spelled: uri.replacingOccurrences(of: "%7E", with: "~"))
    }

    @Test func oneMonitorPerFolderStartedInNameOrder() {
        var folders = FollowedFolders()
        let uris = ["file:///b/1.jpg", "file:///a/1.jpg", "file:///b/2.jpg"]
        #expect(!folders.isFollowing(uris))
        let plan = folders.follow(uris, located: uris.map(located), monitored: [])
        #expect(plan == FollowedFolders.Plan(stop: [], start: ["file:///a", "file:///b"]))
        #expect(folders.isFollowing(uris))
    }

    @Test func foldersNoPhotoIsInAreStoppedAndNewOnesStarted() {
        var folders = FollowedFolders()
        let uris = ["file:///b/1.jpg", "file:///c/1.jpg"]
        let plan = folders.follow(uris, located: uris.map(located), monitored: ["file:///a", "file:///b"])
        #expect(plan == FollowedFolders.Plan(stop: ["file:///a"], start: ["file:///c"]))
    }

    @Test func anEventConcernsItsPhotoOrEveryPhotoOfItsFolder() {
        var folders = FollowedFolders()
        let uris = ["file:///a/%7Eone.jpg", "file:///a/two.jpg", "file:///b/three.jpg"]
        _ = folders.follow(uris, located: uris.map(located), monitored: [])
        // The monitor spells the name its own way; the album's spelling comes back.
        #expect(folders.affected(in: "file:///a", files: ["file:///a/~one.jpg"]) == ["file:///a/%7Eone.jpg"])
        #expect(folders.affected(in: "file:///a", files: ["file:///a/other.jpg"]).isEmpty)
        #expect(folders.affected(in: "file:///a", files: ["file:///a/two.jpg", "file:///a/~one.jpg"])
            == ["file:///a/two.jpg", "file:///a/%7Eone.jpg"])
        #expect(folders.affected(in: "file:///a", files: ["file:///a"]) == ["file:///a/%7Eone.jpg", "file:///a/two.jpg"])
        #expect(folders.affected(in: "file:///z", files: ["file:///z/three.jpg"]).isEmpty)
        folders.clear()
        #expect(folders.affected(in: "file:///a", files: ["file:///a/two.jpg"]).isEmpty)
        #expect(!folders.isFollowing(uris))
    }
}

@Suite struct FolderChangesTests {
    @Test func changesAreGatheredUntilTaken() {
        var batch = ChangeBatch<String>()
        let result10 = batch.add([])
        #expect(!result10)  // nothing: no flush
        let result11 = batch.add(["a"])
        #expect(result11)  // the first: schedule the flush
        let result12 = batch.add(["b", "a"])
        #expect(!result12)  // already scheduled
        let result13 = batch.take()
        #expect(result13 == ["a", "b"])
        #expect(batch.pending.isEmpty && !batch.isFlushScheduled)
        let result14 = batch.add(["c"])
        #expect(result14)
        batch.clear()
        let result15 = batch.take()
        #expect(result15.isEmpty)
    }

    @Test func eventsSayWhichFilesToLookUp() {
        #expect(FolderEvent.created.filesToLookUp(file: "a", other: nil) == ["a"])
        #expect(FolderEvent.changesDone.filesToLookUp(file: "a", other: "x") == ["a"])
        #expect(FolderEvent.renamed.filesToLookUp(file: "old", other: "new") == ["old", "new"])
        // Still being written: CHANGES_DONE_HINT follows.
        #expect(FolderEvent.changed.filesToLookUp(file: "a", other: nil).isEmpty)
        for event in [FolderEvent.deleted, .movedIn, .movedOut, .attributeChanged] {
            #expect(event.filesToLookUp(file: "a", other: nil) == ["a"])
            #expect(event.filesToLookUp(file: nil, other: nil).isEmpty)
        }
        for event in [FolderEvent.preUnmount, .unmounted, .other] { #expect(event.filesToLookUp(file: "a", other: "b").isEmpty) }
    }

    @Test func filesLookedUpAgainBecomeTheTreesUpdate() {
        let parent = TreeFolder(uri: "file:///p", path: ["p"])
        let a = photo("a.jpg", id: "file:///p/a.jpg")
        let update = FolderUpdate(parent: parent, entries: [
            (uri: "file:///p/a.jpg", entry: .photo(a)),
            (uri: "file:///p/Kyoto", entry: .folder(name: "Kyoto")),
            (uri: "file:///p/gone.jpg", entry: .nothing),
        ])
        #expect(update.updated == [a])
        #expect(update.removed == ["file:///p/gone.jpg"])
        #expect(update.folders == [TreeFolder(uri: "file:///p/Kyoto", path: ["p", "Kyoto"])])
    }
}
