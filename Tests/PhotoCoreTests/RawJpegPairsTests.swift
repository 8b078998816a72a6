import Testing
@testable import PhotoCore

private let root = "file:///home/me/DCIM"
private let here = TreeFolder(uri: root, path: [])

private func file(_ name: String, in folder: TreeFolder = here, modified: Int64 = 1) -> Photo {
    Photo(id: folder.uri + "/" + name, displayName: name, modified: modified, size: 1, contentType: "image/jpeg")
}

/// Feeds a change to a mirror of All Photos, as the window does.
private func forward(_ change: FolderTreeChange, to list: inout PhotoList) {
    list.remove(ids: change.removedIDs(from: .allPhotos))
    list.insert(change.insertedPhotos(in: .allPhotos))
}

@Suite struct RawJpegPairsTests {
    @Test func namesTellRawFilesFromTheirJpegs() {
        #expect(PairedFiles.role(ofName: "IMG_0042.CR2")?.role == .raw)
        #expect(PairedFiles.role(ofName: "IMG_0042.CR2")?.stem == "img_0042")
        #expect(PairedFiles.role(ofName: "img_0042.jpg")?.role == .jpeg)
        #expect(PairedFiles.role(ofName: "a.b.nef")?.stem == "a.b")
        #expect(PairedFiles.role(ofName: "x.png") == nil)
        #expect(PairedFiles.role(ofName: ".cr2") == nil)
        #expect(PairedFiles.role(ofName: "noextension") == nil)
    }

    @Test func aRawAndItsJpegAreOnePhotoWhicheverComesFirst() {
        for order in [["x.jpg", "x.cr2"], ["x.cr2", "x.jpg"]] {
            var tree = FolderTree(rootURI: root, rootName: "DCIM")
            var list = PhotoList()
            for name in order { forward(tree.insert([file(name)], in: here), to: &list) }
            #expect(list.all.map(\.displayName) == ["x.jpg"], "order \(order)")
            #expect(list[0].companions.map(\.displayName) == ["x.cr2"])
            #expect(list[0].hasRawCompanion)
            #expect(list[0].fileIDs == [root + "/x.jpg", root + "/x.cr2"])
            #expect(tree.photoCount == 1)
            #expect(tree.photo(id: root + "/x.cr2") == nil)
        }
    }

    @Test func oneBatchPairsToo() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("IMG_1.CR2"), file("a.png"), file("img_1.jpg"), file("IMG_2.NEF")], in: here), to: &list)
        #expect(list.all.map(\.displayName) == ["a.png", "img_1.jpg", "IMG_2.NEF"])
        #expect(list.photo(id: root + "/img_1.jpg")?.companions.map(\.displayName) == ["IMG_1.CR2"])
        #expect(list.photo(id: root + "/IMG_2.NEF")?.companions == [])
    }

    @Test func filesOfTheSameNameInOtherFoldersDoNotPair() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        let sub = here.child(uri: root + "/raw", name: "raw")
        forward(tree.insert([FolderPhotos(folder: here, photos: [file("x.jpg")]),
                             FolderPhotos(folder: sub, photos: [file("x.cr2", in: sub)])]), to: &list)
        #expect(list.count == 2)
        #expect(list.all.allSatisfy { $0.companions.isEmpty })
    }

    @Test func removingTheRawLeavesTheJpegAndRemovingTheJpegShowsTheRaw() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("x.jpg"), file("x.cr2")], in: here), to: &list)
        forward(tree.remove(ids: [root + "/x.cr2"]), to: &list)
        #expect(list.all.map(\.displayName) == ["x.jpg"])
        #expect(list[0].companions.isEmpty)

        forward(tree.insert([file("x.cr2")], in: here), to: &list)
        #expect(list[0].companions.count == 1)
        forward(tree.remove(ids: [root + "/x.jpg"]), to: &list)
        #expect(list.all.map(\.displayName) == ["x.cr2"])
        #expect(tree.photoCount == 1)
    }

    @Test func removingBothFilesAndPuttingThemBackMakesThePairAgain() {
        // Moved to the trash, then Undo: both files leave, then both come back.
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("x.jpg"), file("x.cr2"), file("y.jpg")], in: here), to: &list)
        forward(tree.remove(ids: Set(list.photo(id: root + "/x.jpg")!.fileIDs)), to: &list)
        #expect(list.all.map(\.displayName) == ["y.jpg"])
        #expect(tree.photoCount == 1)
        // The folder's monitor reports the same files gone later: nothing changes.
        #expect(tree.remove(ids: [root + "/x.jpg", root + "/x.cr2"]).isEmpty)
        forward(tree.insert([file("x.cr2")], in: here), to: &list)
        forward(tree.insert([file("x.jpg")], in: here), to: &list)
        #expect(list.all.map(\.displayName) == ["x.jpg", "y.jpg"])
        #expect(list[0].companions.map(\.displayName) == ["x.cr2"])
    }

    @Test func aRawChangedOnDiskChangesItsPhoto() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("x.jpg"), file("x.cr2")], in: here), to: &list)
        let change = tree.insert([file("x.cr2", modified: 5)], in: here)
        #expect(change.insertedPhotos(in: .allPhotos).map(\.displayName) == ["x.jpg"])
        forward(change, to: &list)
        #expect(list[0].companions.first?.modified == 5)
    }

    @Test func theJpegKeepsItsDateTakenWhenItsRawArrives() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList(order: .newestFirst)
        forward(tree.insert([file("x.jpg")], in: here), to: &list)
        tree.setDatesTaken([root + "/x.jpg": 42])
        list.setDatesTaken([root + "/x.jpg": 42])
        forward(tree.insert([file("x.cr2")], in: here), to: &list)
        #expect(list[0].dateTaken == 42)
        #expect(tree.photo(id: root + "/x.jpg")?.dateTaken == 42)
    }

    @Test func aSecondJpegOfTheSameNameIsAPhotoOfItsOwn() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("x.jpg"), file("x.JPEG"), file("x.cr2")], in: here), to: &list)
        #expect(list.count == 2)
        #expect(list.all.filter(\.hasRawCompanion).count == 1)
        forward(tree.remove(ids: [root + "/x.JPEG"]), to: &list)
        #expect(list.all.map(\.displayName) == ["x.jpg"])
    }

    @Test func removingTheFolderForgetsItsCompanions() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        let sub = here.child(uri: root + "/card", name: "card")
        tree.insert([file("x.jpg", in: sub), file("x.cr2", in: sub)], in: sub)
        tree.removeFolder(uri: sub.uri)
        #expect(tree.photoCount == 0)
        #expect(tree.remove(ids: [sub.uri + "/x.cr2"]).isEmpty)
    }

    @Test func propertiesNameTheRawFileToo() {
        var details = PhotoDetails(uri: root + "/x.jpg", name: "x.jpg", size: 2_000_000)
        details.companions = [Photo(id: root + "/x.cr2", displayName: "x.cr2", modified: 1, size: 25_000_000, contentType: "image/x-canon-cr2")]
        let rows = details.rows(utcOffset: { _ in 0 })
        #expect(rows.contains { $0.label == "Name" && $0.value == "x.jpg" })
        #expect(rows.contains { $0.label == "RAW File" && $0.value.hasPrefix("x.cr2 (") })
    }
}

@Suite struct LivePhotoPairsTests {
    @Test func aStillAndItsMovieAreOneLivePhoto() {
        for order in [["IMG_1.HEIC", "IMG_1.MOV"], ["IMG_1.MOV", "IMG_1.HEIC"]] {
            var tree = FolderTree(rootURI: root, rootName: "DCIM")
            var list = PhotoList()
            for name in order { forward(tree.insert([file(name)], in: here), to: &list) }
            #expect(list.all.map(\.displayName) == ["IMG_1.HEIC"], "order \(order)")
            #expect(list[0].liveMovie?.displayName == "IMG_1.MOV")
            #expect(!list[0].hasRawCompanion)
            #expect(list[0].fileIDs == [root + "/IMG_1.HEIC", root + "/IMG_1.MOV"])
        }
    }

    @Test func aMovieAloneIsAVideoAndLeavingTheStillShowsIt() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("a.jpg"), file("a.mov"), file("b.mov")], in: here), to: &list)
        #expect(list.all.map(\.displayName) == ["a.jpg", "b.mov"])
        forward(tree.remove(ids: [root + "/a.jpg"]), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["a.mov", "b.mov"])
    }

    @Test func filesOfOneIdentifierPairWhateverTheirNames() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        // An export renamed them: by name they are a still and a video.
        forward(tree.insert([file("Beach.heic"), file("IMG_E0042.mov")], in: here), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["Beach.heic", "IMG_E0042.mov"])
        #expect(Set(tree.unidentifiedLiveFiles) == [root + "/Beach.heic", root + "/IMG_E0042.mov"])
        forward(tree.setLiveIdentifiers([root + "/Beach.heic": "AAAA-1111", root + "/IMG_E0042.mov": "AAAA-1111"]), to: &list)
        #expect(list.all.map(\.displayName) == ["Beach.heic"])
        #expect(list[0].liveMovie?.displayName == "IMG_E0042.mov")
        #expect(tree.unidentifiedLiveFiles.isEmpty)
        // The movie gone, the still stays a still.
        forward(tree.remove(ids: [root + "/IMG_E0042.mov"]), to: &list)
        #expect(list.all.map(\.displayName) == ["Beach.heic"])
        #expect(list[0].liveMovie == nil)
    }

    @Test func filesOfTwoIdentifiersAreNoPairWhateverTheirNames() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("IMG_1.HEIC"), file("IMG_1.MOV")], in: here), to: &list)
        #expect(list.all.map(\.displayName) == ["IMG_1.HEIC"])
        forward(tree.setLiveIdentifiers([root + "/IMG_1.HEIC": "AAAA-1111", root + "/IMG_1.MOV": "BBBB-2222"]), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["IMG_1.HEIC", "IMG_1.MOV"])
        #expect(list.all.allSatisfy { $0.companions.isEmpty })
        #expect(tree.photoCount == 2)
    }

    @Test func aNameStillPairsFilesWithoutIdentifiers() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("a.jpg"), file("a.mov"), file("b.heic"), file("b.mov")], in: here), to: &list)
        // a: neither has one; b: only the still has one.
        forward(tree.setLiveIdentifiers([root + "/a.jpg": nil, root + "/a.mov": nil, root + "/b.heic": "CCCC-3333", root + "/b.mov": nil]), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["a.jpg", "b.heic"])
        #expect(list.all.allSatisfy { $0.liveMovie != nil })
    }

    @Test func aMovieOfItsOwnIdentifierTakesTheStillFromTheMovieOfItsName() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        var list = PhotoList()
        forward(tree.insert([file("x.heic"), file("x.mov"), file("x (1).mov")], in: here), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["x.heic", "x (1).mov"])
        forward(tree.setLiveIdentifiers([root + "/x.heic": "DDDD-4444", root + "/x (1).mov": "DDDD-4444"]), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["x.heic", "x.mov"])
        #expect(list.all.first { $0.displayName == "x.heic" }?.liveMovie?.displayName == "x (1).mov")
        // Its identifier read again as another one: back to names.
        forward(tree.setLiveIdentifiers([root + "/x (1).mov": "EEEE-5555"]), to: &list)
        #expect(Set(list.all.map(\.displayName)) == ["x.heic", "x (1).mov"])
        #expect(list.all.first { $0.displayName == "x.heic" }?.liveMovie?.displayName == "x.mov")
    }

    @Test func aFolderWithoutMoviesReadsNoIdentifiers() {
        var tree = FolderTree(rootURI: root, rootName: "DCIM")
        tree.insert([file("a.jpg"), file("a.cr2"), file("b.heic")], in: here)
        #expect(tree.unidentifiedLiveFiles.isEmpty)
    }

    @Test func thePropertiesNameTheMovie() {
        var details = PhotoDetails(uri: root + "/IMG_1.JPG", name: "IMG_1.JPG")
        details.companions = [file("IMG_1.MOV"), file("IMG_1.DNG")]
        let rows = details.rows(utcOffset: { _ in 0 })
        #expect(rows.contains { $0.label == "Live Photo Movie" && $0.value.hasPrefix("IMG_1.MOV") })
        #expect(rows.contains { $0.label == "RAW File" && $0.value.hasPrefix("IMG_1.DNG") })
    }
}
