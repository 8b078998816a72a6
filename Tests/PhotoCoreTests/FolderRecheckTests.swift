import PhotoCore
import Testing

private let trip = TreeFolder(uri: "file:///home/me/Pictures/Trip", path: ["Trip"])

private func tripPhoto(_ name: String, modified: Int64 = 1, size: Int64 = 10) -> Photo {
    Photo(id: trip.uri + "/" + name, displayName: name, modified: modified, size: size, contentType: "image/jpeg")
}

/// A folder read again once followed: what changed between a walk's read and its monitor's start.
@Suite struct FolderRecheckTests {
    @Test func aFolderModifiedBeforeTheWalkStartedIsNotReadAgainButOneModifiedAfterIs() {
        let walkStarted: Int64 = 1_700_000_000_000_000
        #expect(!FolderRecheck.isDue(folderModified: walkStarted - 60_000_000, walkStarted: walkStarted))
        #expect(FolderRecheck.isDue(folderModified: walkStarted + 1, walkStarted: walkStarted))
        // A file system that keeps times by 2 seconds rounds a later change down.
        #expect(FolderRecheck.isDue(folderModified: walkStarted - 1_900_000, walkStarted: walkStarted))
    }

    @Test func newChangedAndGonePhotosAndFoldersAreTheUpdate() {
        let known = [tripPhoto("kept.jpg"), tripPhoto("edited.jpg"), tripPhoto("deleted.jpg"), tripPhoto("resized.jpg")]
        let recheck = FolderRecheck(folder: trip, photos: known, folders: [trip.uri + "/Day 1", trip.uri + "/Day 2"])
        let now = [tripPhoto("kept.jpg"), tripPhoto("edited.jpg", modified: 2), tripPhoto("resized.jpg", size: 11), tripPhoto("new.jpg")]
        let update = recheck.update(photos: now, folders: [
            (uri: trip.uri + "/Day 1", name: "Day 1", isWalked: true),
            (uri: trip.uri + "/Day 3", name: "Day 3", isWalked: true),
            (uri: trip.uri + "/Linked", name: "Linked", isWalked: false),
        ])
        #expect(Set(update.updated.map(\.displayName)) == ["edited.jpg", "resized.jpg", "new.jpg"])
        #expect(update.removed == [trip.uri + "/deleted.jpg", trip.uri + "/Day 2"])
        // A new folder a walk would enter is walked, placed below the folder; a link is not.
        #expect(update.folders == [TreeFolder(uri: trip.uri + "/Day 3", path: ["Trip", "Day 3"])])
    }

    @Test func theFilesShownWithAPhotoAreNotNew() {
        var jpeg = tripPhoto("IMG_1.JPG")
        jpeg.companions = [tripPhoto("IMG_1.RAF")]
        let recheck = FolderRecheck(folder: trip, photos: [jpeg], folders: [])
        #expect(recheck.update(photos: [tripPhoto("IMG_1.JPG"), tripPhoto("IMG_1.RAF")], folders: []).isEmpty)
        #expect(recheck.update(photos: [tripPhoto("IMG_1.JPG")], folders: []).removed == [trip.uri + "/IMG_1.RAF"])
    }

    @Test func aFollowedLinkStillThereIsNotGone() {
        let recheck = FolderRecheck(folder: trip, photos: [], folders: [trip.uri + "/Linked"])
        let update = recheck.update(photos: [], folders: [(uri: trip.uri + "/Linked", name: "Linked", isWalked: false)])
        #expect(update.isEmpty)
    }

    @Test func whatTheMonitorReportedMeanwhileIsLeftToIt() {
        let recheck = FolderRecheck(folder: trip, photos: [tripPhoto("a.jpg"), tripPhoto("b.jpg")], folders: [])
        let update = recheck.update(photos: [tripPhoto("c.jpg"), tripPhoto("d.jpg")], folders: [(uri: trip.uri + "/New", name: "New", isWalked: true)])
        #expect(update.updated.count == 2 && update.removed.count == 2 && update.folders.count == 1)
        let left = update.excluding([trip.uri + "/a.jpg", trip.uri + "/c.jpg", trip.uri + "/New"])
        #expect(left.updated.map(\.displayName) == ["d.jpg"])
        #expect(left.removed == [trip.uri + "/b.jpg"])
        #expect(left.folders.isEmpty)
        #expect(!left.isEmpty && update.excluding([]) == update)
    }
}
