import Testing
@testable import PhotoCore

private let root = "file:///home/me/Pictures"

/// A folder `path` below the opened folder (empty: the opened folder itself).
private func folder(_ path: String...) -> TreeFolder {
    TreeFolder(uri: path.isEmpty ? root : root + "/" + path.joined(separator: "/"), path: path)
}

/// A photo named `name` in `folder`, modified at `modified`.
private func photo(_ name: String, in folder: TreeFolder, modified: Int64, size: Int64 = 1) -> Photo {
    Photo(id: folder.uri + "/" + name, displayName: name, modified: modified, size: size, contentType: "image/jpeg")
}

private func titles(_ tree: FolderTree) -> [String] { tree.albums.map(\.title) }

/// Applies a change to a `PhotoList` mirror of `album`, as the window does.
private func forward(_ change: FolderTreeChange, to list: inout PhotoList, album: AlbumID) {
    list.remove(ids: change.removedIDs(from: album))
    list.insert(change.insertedPhotos(in: album))
}

/// Checks that a mirror fed only by changes holds exactly what the tree says the album holds.
private func expectMirror(_ list: PhotoList, of tree: FolderTree, album: AlbumID, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(Set(list.all.map(\.id)) == Set(tree.photos(in: album).map(\.id)), sourceLocation: sourceLocation)
    #expect(list.count == tree.photos(in: album).count, sourceLocation: sourceLocation)
}

@Suite struct FolderTreeTests {
    @Test func aFolderWithoutSubfolderAlbumsHasNothingToSwitch() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let change = tree.insert([photo("a.jpg", in: folder(), modified: 1), photo("b.jpg", in: folder(), modified: 2)], in: folder())
        #expect(!tree.hasAlbums)
        #expect(tree.albums.isEmpty)
        #expect(!change.switcherChanged)
        #expect(change.insertedPhotos(in: .allPhotos).count == 2)
        #expect(change.insertedPhotos(in: .folder(root)).count == 2)
        #expect(change.changedAlbums == [.allPhotos, .folder(root)])
        #expect(tree.photos(in: .allPhotos).count == 2)
        #expect(tree.summary(of: .folder(root))?.title == "Pictures")
        #expect(tree.summary(of: .allPhotos)?.count == 2)
    }

    @Test func albumsComeInSwitcherOrderWithTitlesCountsAndCovers() throws {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let kyoto = folder("2024", "2024-05 Kyoto")
        let paris = folder("2023", "Paris")
        let year = folder("2024")
        tree.insert([photo("own.jpg", in: folder(), modified: 50)], in: folder())
        #expect(!tree.hasAlbums)

        let change = tree.insert([
            FolderPhotos(folder: kyoto, photos: [photo("k1.jpg", in: kyoto, modified: 300), photo("k2.jpg", in: kyoto, modified: 310)]),
            FolderPhotos(folder: paris, photos: [photo("p1.jpg", in: paris, modified: 100)]),
            FolderPhotos(folder: year, photos: [photo("y1.jpg", in: year, modified: 200), photo("y2.jpg", in: year, modified: 100),
                                                photo("y3.jpg", in: year, modified: 150)]),
        ])
        #expect(change.switcherChanged)
        #expect(tree.hasAlbums)
        #expect(titles(tree) == ["All Photos", "Pictures", "2024 / 2024-05 Kyoto", "2024", "2023 / Paris"])
        #expect(tree.albums.map(\.id) == [.allPhotos, .folder(root), .folder(kyoto.uri), .folder(year.uri), .folder(paris.uri)])
        #expect(tree.albums.map(\.count) == [7, 1, 2, 3, 1])
        #expect(tree.albums.map { $0.cover?.displayName } == ["k2.jpg", "own.jpg", "k2.jpg", "y1.jpg", "p1.jpg"])
        #expect(tree.albums.map(\.newest) == [310, 50, 310, 200, 100])
        #expect(change.changedAlbums == [.allPhotos, .folder(kyoto.uri), .folder(paris.uri), .folder(year.uri)])
        #expect(Set(change.insertedPhotos(in: .folder(year.uri)).map(\.displayName)) == ["y1.jpg", "y2.jpg", "y3.jpg"])
        #expect(change.insertedPhotos(in: .allPhotos).count == 6)
        #expect(change.removedIDs(from: .allPhotos).isEmpty)
        #expect(tree.folder(of: kyoto.uri + "/k1.jpg") == kyoto)
        #expect(tree.folder(of: root + "/own.jpg") == folder())
        #expect(tree.folder(of: root + "/nothing.jpg") == nil)
    }

    @Test func theRootAlbumIsListedOnlyWhenTheRootHoldsPhotos() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let a = folder("a")
        tree.insert([photo("1.jpg", in: a, modified: 1)], in: a)
        #expect(titles(tree) == ["All Photos", "a"])
        let change = tree.insert([photo("r.jpg", in: folder(), modified: 0)], in: folder())
        #expect(change.switcherChanged)
        #expect(titles(tree) == ["All Photos", "Pictures", "a"])
    }

    @Test func tiesInNewestAreBrokenByTitleInNaturalOrder() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        for name in ["Trip 10", "trip 9", "Trip 1", "Album"] {
            let f = folder(name)
            tree.insert([photo("x.jpg", in: f, modified: 7)], in: f)
        }
        #expect(titles(tree) == ["All Photos", "Album", "Trip 1", "trip 9", "Trip 10"])
    }

    @Test func anEmptyFolderMakesNoAlbum() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let change = tree.insert([], in: folder("empty"))
        #expect(change.isEmpty)
        #expect(!tree.hasAlbums)
        #expect(tree.summary(of: .folder(folder("empty").uri)) == nil)
    }

    @Test func removingAFolderRemovesEverythingBelowIt() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let year = folder("2024"), kyoto = folder("2024", "Kyoto"), deep = folder("2024", "Kyoto", "day 2"), other = folder("2024 extra")
        tree.insert([
            FolderPhotos(folder: folder(), photos: [photo("r.jpg", in: folder(), modified: 1)]),
            FolderPhotos(folder: year, photos: [photo("y.jpg", in: year, modified: 2)]),
            FolderPhotos(folder: kyoto, photos: [photo("k.jpg", in: kyoto, modified: 3)]),
            FolderPhotos(folder: deep, photos: [photo("d1.jpg", in: deep, modified: 4), photo("d2.jpg", in: deep, modified: 5)]),
            FolderPhotos(folder: other, photos: [photo("o.jpg", in: other, modified: 6)]),
        ])
        var all = PhotoList()
        all.insert(tree.photos(in: .allPhotos))

        let change = tree.removeFolder(uri: kyoto.uri)
        forward(change, to: &all, album: .allPhotos)
        expectMirror(all, of: tree, album: .allPhotos)
        #expect(change.removedIDs(from: .folder(kyoto.uri)) == [kyoto.uri + "/k.jpg"])
        #expect(change.removedIDs(from: .folder(deep.uri)) == [deep.uri + "/d1.jpg", deep.uri + "/d2.jpg"])
        #expect(change.removedIDs(from: .allPhotos).count == 3)
        #expect(change.changedAlbums == [.allPhotos, .folder(kyoto.uri), .folder(deep.uri)])
        #expect(change.switcherChanged)
        // "2024 extra" shares the prefix "2024" but not the folder.
        #expect(titles(tree) == ["All Photos", "Pictures", "2024 extra", "2024"])
        #expect(tree.photoCount == 3)
        #expect(tree.folder(of: deep.uri + "/d1.jpg") == nil)

        let rest = tree.removeFolder(uri: year.uri)
        #expect(rest.removedIDs(from: .allPhotos) == [year.uri + "/y.jpg"])
        #expect(titles(tree) == ["All Photos", "Pictures", "2024 extra"])
        tree.removeFolder(uri: other.uri)
        #expect(!tree.hasAlbums)
        #expect(tree.photoCount == 1)
        let everything = tree.removeFolder(uri: root)
        #expect(everything.removedIDs(from: .allPhotos) == [root + "/r.jpg"])
        #expect(tree.photoCount == 0)
        #expect(tree.summary(of: .allPhotos) == nil)
    }

    @Test func removingPhotosUpdatesCountsCoversAndOrder() throws {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let a = folder("a"), b = folder("b")
        tree.insert([FolderPhotos(folder: a, photos: [photo("a1", in: a, modified: 10), photo("a2", in: a, modified: 40)]),
                     FolderPhotos(folder: b, photos: [photo("b1", in: b, modified: 30)])])
        #expect(titles(tree) == ["All Photos", "a", "b"])

        let change = tree.remove(ids: [a.uri + "/a2", "file:///elsewhere/x.jpg"])
        #expect(change.removedIDs(from: .folder(a.uri)) == [a.uri + "/a2"])
        #expect(change.changedAlbums == [.allPhotos, .folder(a.uri)])
        #expect(change.switcherChanged)
        #expect(titles(tree) == ["All Photos", "b", "a"])
        let summary = try #require(tree.summary(of: .folder(a.uri)))
        #expect(summary.count == 1 && summary.cover?.displayName == "a1" && summary.newest == 10)
        #expect(tree.summary(of: .allPhotos)?.cover?.displayName == "b1")

        let last = tree.remove(ids: [a.uri + "/a1"])
        #expect(last.changedAlbums.contains(.folder(a.uri)))
        #expect(tree.summary(of: .folder(a.uri)) == nil)
        #expect(titles(tree) == ["All Photos", "b"])
        #expect(tree.remove(ids: ["file:///nowhere"]).isEmpty)
    }

    @Test func aPhotoMovingBetweenFoldersLeavesOneAndEntersTheOther() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let a = folder("a"), b = folder("b")
        let moving = photo("m.jpg", in: a, modified: 90)
        tree.insert([FolderPhotos(folder: a, photos: [moving, photo("a1", in: a, modified: 10)]),
                     FolderPhotos(folder: b, photos: [photo("b1", in: b, modified: 20)])])
        var all = PhotoList(), listA = PhotoList(), listB = PhotoList()
        all.insert(tree.photos(in: .allPhotos)); listA.insert(tree.photos(in: .folder(a.uri))); listB.insert(tree.photos(in: .folder(b.uri)))
        #expect(titles(tree) == ["All Photos", "a", "b"])

        // On disk a move is a new URI: the old one vanishes, the new one appears.
        let gone = tree.remove(ids: [moving.id])
        let moved = photo("m.jpg", in: b, modified: 90)
        let arrived = tree.insert([moved], in: b)
        for change in [gone, arrived] {
            forward(change, to: &all, album: .allPhotos)
            forward(change, to: &listA, album: .folder(a.uri))
            forward(change, to: &listB, album: .folder(b.uri))
        }
        expectMirror(all, of: tree, album: .allPhotos)
        expectMirror(listA, of: tree, album: .folder(a.uri))
        expectMirror(listB, of: tree, album: .folder(b.uri))
        #expect(tree.folder(of: moved.id) == b)
        #expect(titles(tree) == ["All Photos", "b", "a"])
        #expect(tree.albums.map(\.count) == [3, 2, 1])

        // The same id reported in another folder moves it in one change; All Photos keeps it.
        let again = tree.insert([moved], in: a)
        #expect(again.removedIDs(from: .folder(b.uri)) == [moved.id])
        #expect(again.insertedPhotos(in: .folder(a.uri)).map(\.id) == [moved.id])
        #expect(again.removedIDs(from: .allPhotos).isEmpty)
        #expect(tree.folder(of: moved.id) == a)
        #expect(tree.albums.map(\.count) == [3, 2, 1])
        #expect(titles(tree) == ["All Photos", "a", "b"])
    }

    @Test func reinsertingAnUnchangedPhotoChangesNothingAndKeepsItsDate() throws {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let a = folder("a")
        let p = photo("p.jpg", in: a, modified: 5)
        tree.insert([p], in: a)
        tree.setDatesTaken([p.id: 3])
        #expect(tree.insert([p], in: a).isEmpty)
        #expect(tree.photo(id: p.id)?.dateTaken == 3)
        // Rewritten on disk: a new value, whose date is no longer known.
        let rewritten = photo("p.jpg", in: a, modified: 8, size: 2)
        let change = tree.insert([rewritten], in: a)
        #expect(change.insertedPhotos(in: .folder(a.uri)) == [rewritten])
        #expect(tree.photo(id: p.id)?.dateTaken == nil)
        #expect(tree.summary(of: .folder(a.uri))?.newest == 8)
    }

    @Test func datesTakenDecideCoversAndOrder() throws {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let a = folder("a"), b = folder("b")
        // Copied to disk recently: a's files are newer than b's by modification time.
        tree.insert([FolderPhotos(folder: a, photos: [photo("a1", in: a, modified: 1000), photo("a2", in: a, modified: 1001)]),
                     FolderPhotos(folder: b, photos: [photo("b1", in: b, modified: 900), photo("b2", in: b, modified: 901)])])
        #expect(titles(tree) == ["All Photos", "a", "b"])
        #expect(tree.summary(of: .folder(a.uri))?.cover?.displayName == "a2")

        // a's photos were taken long ago; b's cover is the one taken last.
        let change = tree.setDatesTaken([a.uri + "/a1": 10, a.uri + "/a2": 5, b.uri + "/b1": 500, "file:///gone.jpg": 1])
        #expect(change.switcherChanged)
        // b's cover (b2) and count did not change.
        #expect(change.changedAlbums == [.allPhotos, .folder(a.uri)])
        #expect(change.insertedPhotos(in: .allPhotos).isEmpty)
        #expect(titles(tree) == ["All Photos", "b", "a"])
        let a1 = try #require(tree.summary(of: .folder(a.uri)))
        #expect(a1.cover?.displayName == "a1" && a1.newest == 10 && a1.cover?.dateTaken == 10)
        // b2's date is not known yet: its modification time still counts.
        #expect(tree.summary(of: .folder(b.uri))?.cover?.displayName == "b2")
        #expect(tree.summary(of: .allPhotos)?.cover?.displayName == "b2")

        let later = tree.setDatesTaken([b.uri + "/b2": 1])
        #expect(!later.switcherChanged)
        #expect(tree.summary(of: .folder(b.uri))?.cover?.displayName == "b1")
        #expect(tree.summary(of: .folder(b.uri))?.newest == 500)
        // A date that makes a's photo the newest of all moves a first again.
        #expect(tree.setDatesTaken([a.uri + "/a2": 600]).switcherChanged)
        #expect(titles(tree) == ["All Photos", "a", "b"])
        // The same date again changes nothing.
        #expect(tree.setDatesTaken([a.uri + "/a2": 600]).isEmpty)
    }

    @Test func changesKeepMirroredListsExactAcrossRandomEdits() {
        var generator = SeededGenerator(seed: 7)
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let folders = [folder()] + (0..<6).map { folder("f\($0)") } + [folder("f1", "deep")]
        var all = PhotoList(order: .newestFirst)
        var mirrors: [String: PhotoList] = [:]
        for f in folders { mirrors[tree.rootURI == f.uri ? root : f.uri] = PhotoList(order: .newestFirst) }
        var next = 0
        for _ in 0..<300 {
            let change: FolderTreeChange
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let f = folders.randomElement(using: &generator)!
                let photos = (0..<Int.random(in: 1...5, using: &generator)).map { _ -> Photo in
                    next += 1
                    return photo("p\(next).jpg", in: f, modified: Int64.random(in: 0..<1000, using: &generator))
                }
                change = tree.insert(photos, in: f)
            case 5..<7:
                let ids = Set(tree.photos(in: .allPhotos).prefix(3).map(\.id))
                change = tree.remove(ids: ids)
            case 7:
                change = tree.removeFolder(uri: folders.randomElement(using: &generator)!.uri)
            case 8:
                // A photo seen again in another folder.
                guard let p = tree.photos(in: .allPhotos).first else { continue }
                let f = folders.randomElement(using: &generator)!
                change = tree.insert([p], in: f)
            default:
                let dates = Dictionary(tree.photos(in: .allPhotos).prefix(4).map { ($0.id, Int64?.some(Int64.random(in: 0..<2000, using: &generator))) },
                                       uniquingKeysWith: { a, _ in a })
                change = tree.setDatesTaken(dates)
                all.setDatesTaken(dates)
                for key in mirrors.keys { mirrors[key]!.setDatesTaken(dates) }
            }
            let before = tree.albums
            forward(change, to: &all, album: .allPhotos)
            for key in mirrors.keys { forward(change, to: &mirrors[key]!, album: .folder(key)) }
            expectMirror(all, of: tree, album: .allPhotos)
            for (key, list) in mirrors { expectMirror(list, of: tree, album: .folder(key)) }
            // Each summary agrees with the album's photos; the cover is the first newest first.
            for summary in before {
                let photos = tree.photos(in: summary.id)
                #expect(summary.count == photos.count)
                #expect(summary.cover == photos.min(by: PhotoOrder.newestFirst.areInIncreasingOrder))
            }
            let listedFolders = Set(before.map(\.id)).subtracting([.allPhotos, .folder(root)])
            #expect(tree.hasAlbums == !listedFolders.isEmpty)
        }
    }

    @Test func aLargeTreeBuiltInBatchesStaysConsistent() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        var inserted = Set<String>()
        var changes = 0
        for f in 0..<200 {
            let dir = folder("year \(f / 20)", "event \(f)")
            let photos = (0..<250).map { photo(String(format: "IMG_%04d.jpg", $0), in: dir, modified: Int64(f * 1000 + $0)) }
            for start in stride(from: 0, to: photos.count, by: 64) {
                let change = tree.insert(Array(photos[start..<min(start + 64, photos.count)]), in: dir)
                inserted.formUnion(change.insertedPhotos(in: .allPhotos).map(\.id))
                changes += 1
            }
        }
        #expect(changes == 800)
        #expect(tree.photoCount == 50_000)
        #expect(inserted.count == 50_000)
        let albums = tree.albums
        #expect(albums.count == 201)
        #expect(albums.first?.count == 50_000)
        #expect(albums.dropFirst().allSatisfy { $0.count == 250 })
        #expect(albums[1].title == "year 9 / event 199")
        #expect(albums.last?.title == "year 0 / event 0")
        #expect(albums[1].cover?.displayName == "IMG_0249.jpg")
        let dates = Dictionary(uniqueKeysWithValues: tree.photos(in: .folder(folder("year 0", "event 0").uri)).map { ($0.id, Int64?.some(1_000_000)) })
        #expect(tree.setDatesTaken(dates).switcherChanged)
        #expect(tree.albums[1].title == "year 0 / event 0")
    }
    @Test func photosTakenOutOfAFolderLeaveEveryOtherOneFindable() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let kyoto = folder("Kyoto"), paris = folder("Paris")
        let photos = (0..<20).map { photo("IMG_\($0).jpg", in: kyoto, modified: Int64($0)) }
        tree.insert(photos, in: kyoto)
        tree.insert([photo("p.jpg", in: paris, modified: 100)], in: paris)
        // From the middle, the start and the end, so others move into their places.
        let gone: Set<String> = [photos[0].id, photos[7].id, photos[19].id, photos[8].id]
        tree.remove(ids: gone)
        // One moves to another folder (the same file found there).
        let moved = photo("IMG_3.jpg", in: paris, modified: 3)
        let renamed = Photo(id: photos[3].id, displayName: moved.displayName, modified: 3, size: 1, contentType: "image/jpeg")
        tree.insert([renamed], in: paris)
        var dates: [String: Int64?] = [:]
        for p in photos where !gone.contains(p.id) { dates[p.id] = 1_000 + p.modified }
        tree.setDatesTaken(dates)

        #expect(tree.photoCount == 17)
        for p in photos {
            if gone.contains(p.id) {
                #expect(tree.photo(id: p.id) == nil)
                #expect(tree.folder(of: p.id) == nil)
            } else {
                #expect(tree.photo(id: p.id)?.displayName == p.displayName)
                #expect(tree.photo(id: p.id)?.dateTaken == 1_000 + p.modified)
                #expect(tree.folder(of: p.id) == (p.id == photos[3].id ? paris : kyoto))
            }
        }
        #expect(tree.photos(in: .folder(kyoto.uri)).count == 15)
        #expect(Set(tree.photos(in: .folder(paris.uri)).map(\.id)) == [photos[3].id, root + "/Paris/p.jpg"])
        #expect(tree.summary(of: .folder(kyoto.uri))?.cover?.id == photos[18].id)
        tree.removeFolder(uri: kyoto.uri)
        #expect(tree.photoCount == 2)
        #expect(tree.photo(id: photos[18].id) == nil)
    }
}
