import Testing
@testable import PhotoCore

private let root = "file:///home/me/Pictures"

private func folder(_ path: String...) -> TreeFolder {
    TreeFolder(uri: path.isEmpty ? root : root + "/" + path.joined(separator: "/"), path: path)
}

private func photo(_ name: String, in folder: TreeFolder, modified: Int64 = 1) -> Photo {
    Photo(id: folder.uri + "/" + name, displayName: name, modified: modified, size: 1, contentType: "image/jpeg")
}

/// Applies a change to a `PhotoList` mirror of `album`, as the window does.
private func forward(_ change: FolderTreeChange, to list: inout PhotoList, album: AlbumID) {
    list.remove(ids: change.removedIDs(from: album))
    list.insert(change.insertedPhotos(in: album))
}

/// The tree's changes gathered (`FolderTreeChange.append`) and handed to an album at once
/// leave it as handing them one at a time does; and a folder of photos too many to pair.
@Suite struct ChangeGatheringTests {
    /// Runs `steps` on a tree twice: each change forwarded as it comes, and all of them
    /// gathered into one; both mirrors must end the same, for every album.
    private func expectGatheredLikeStepped(_ steps: [(inout FolderTree) -> FolderTreeChange],
                                           albums: [AlbumID], sourceLocation: SourceLocation = #_sourceLocation) {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        var stepped = Dictionary(uniqueKeysWithValues: albums.map { ($0, PhotoList(order: .byName)) })
        var gathered = FolderTreeChange()
        for step in steps {
            let change = step(&tree)
            for album in albums { forward(change, to: &stepped[album]!, album: album) }
            gathered.append(change)
        }
        for album in albums {
            var once = PhotoList(order: .byName)
            forward(gathered, to: &once, album: album)
            #expect(once.all == stepped[album]!.all, "\(album)", sourceLocation: sourceLocation)
            #expect(Set(once.all.map(\.id)) == Set(tree.photos(in: album).map(\.id)), sourceLocation: sourceLocation)
        }
    }

    @Test func insertionsThenRemovalsThenMovesGatherIntoOne() {
        let a = folder("a"), b = folder("b")
        expectGatheredLikeStepped([
            { $0.insert([photo("1.jpg", in: a), photo("2.jpg", in: a), photo("3.jpg", in: b)], in: a) },
            { $0.remove(ids: [a.uri + "/2.jpg"]) },
            { $0.insert([photo("2.jpg", in: a, modified: 5)], in: a) },
            { $0.insert([photo("4.jpg", in: b)], in: b) },
            { $0.removeFolder(uri: b.uri) },
            { $0.insert([photo("5.jpg", in: b)], in: b) },
        ], albums: [.allPhotos, .folder(a.uri), .folder(b.uri)])
    }

    @Test func aRawHiddenByItsLaterJpegIsNotInsertedByTheSum() {
        let here = folder()
        expectGatheredLikeStepped([
            { $0.insert([photo("x.cr2", in: here), photo("y.jpg", in: here)], in: here) },
            { $0.insert([photo("x.jpg", in: here)], in: here) },
            { $0.insert([photo("x.cr2", in: here, modified: 7)], in: here) },
            { $0.remove(ids: [here.uri + "/x.jpg"]) },
        ], albums: [.allPhotos, .folder(root)])
    }

    @Test func theSumCountsWhatItInsertsAndKeepsWhatChanged() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        var sum = tree.insert([photo("1.jpg", in: folder("a"))], in: folder("a"))
        sum.append(tree.insert([photo("2.jpg", in: folder("b")), photo("3.jpg", in: folder("b"))], in: folder("b")))
        #expect(sum.insertedCount == 3)
        #expect(sum.switcherChanged)
        #expect(sum.changedAlbums.contains(.folder(folder("a").uri)) && sum.changedAlbums.contains(.folder(folder("b").uri)))
    }

    @Test func slicesGoToTheAlbumsAtOnceForTheFirstScreenThenOnceASecond() {
        #expect(!MergeSlices.isHandOverDue(pending: 0, largestAlbum: 0, waited: 5))
        #expect(MergeSlices.isHandOverDue(pending: 1, largestAlbum: 0, waited: 0))
        #expect(!MergeSlices.isHandOverDue(pending: 95_000, largestAlbum: 64, waited: 0.9))
        #expect(MergeSlices.isHandOverDue(pending: 1, largestAlbum: 40_000, waited: MergeSlices.handOverInterval))
        // A hand-over that took 0.3 s spaces the next one 3 s later.
        #expect(!MergeSlices.isHandOverDue(pending: 1, largestAlbum: 40_000, waited: 2.9, lastHandOver: 0.3))
        #expect(MergeSlices.isHandOverDue(pending: 1, largestAlbum: 40_000, waited: 3, lastHandOver: 0.3))
    }

    @Test func aFolderOfJpegsPairsWithTheRawThatComesLast() {
        var tree = FolderTree(rootURI: root, rootName: "Pictures")
        let here = folder()
        var list = PhotoList(order: .byName)
        forward(tree.insert((0..<50).map { photo("IMG_\($0).JPG", in: here) }, in: here), to: &list, album: .allPhotos)
        forward(tree.insert([photo("img_7.cr2", in: here), photo("IMG_99.NEF", in: here)], in: here), to: &list, album: .allPhotos)
        #expect(list.count == 51)
        #expect(list.photo(id: here.uri + "/IMG_7.JPG")?.companions.map(\.displayName) == ["img_7.cr2"])
        #expect(list.photo(id: here.uri + "/IMG_99.NEF") != nil)
        // The JPEG gone, its RAW file is shown on its own.
        forward(tree.remove(ids: [here.uri + "/IMG_7.JPG"]), to: &list, album: .allPhotos)
        #expect(list.photo(id: here.uri + "/img_7.cr2") != nil)
    }

    @Test func photosOfTheSameFileAreEqualWhereverTheyWereMade() {
        let here = folder()
        let a = photo("1.jpg", in: here), b = photo("1.jpg", in: here)
        #expect(a == b && a.hashValue == b.hashValue)
        var dated = a
        dated.dateTaken = 3
        #expect(dated != a)
        #expect(photo("1.jpg", in: here, modified: 2) != a)
        #expect(Photo(id: a.id, displayName: "other", modified: 1, size: 1, contentType: "image/jpeg") != a)
    }

    @Test(arguments: ["IMG_0042.JPG", "img0", "a00b007c0", "DSC 10 copy 2.jpg", "x9999999999999999999", "Ünïcödé 10.jpg", "ABC", ""])
    func sortKeysAreTheLowercasedNameWithDigitRunsByValue(_ name: String) {
        // The key as first specified: lowercased UTF-8; each digit run a marker, its length
        // without leading zeros, the digits ("0" for a run of zeros).
        var expected: [UInt8] = [], digits: [UInt8] = []
        func flush() {
            guard !digits.isEmpty else { return }
            let significant = Array(digits.drop { $0 == UInt8(ascii: "0") })
            let run = significant.isEmpty ? [UInt8(ascii: "0")] : significant
            expected += [1, UInt8(min(run.count, 255))] + run
            digits = []
        }
        for byte in name.lowercased().utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { digits.append(byte) } else { flush(); expected.append(byte) }
        }
        flush()
        #expect(NaturalSortKey(name).bytes == expected)
    }

    @MainActor @Test func slicesReachTheAlbumsOnceASecondAndAllOfThemByTheEnd() {
        let albums = FolderAlbums(rootURI: root, rootName: "Pictures")
        let all = AlbumContents(id: .allPhotos, order: .byName, source: nil)
        albums.attach(all)
        var splices = 0
        all.observeChanges { _ in splices += 1 }
        let here = folder()
        let slices = (0..<8).map { n in
            [FolderPhotos(folder: here, photos: (0..<MergeSlices.size).map { photo("\(n)-\($0).jpg", in: here) })]
        }
        // The first slice at once (the album was empty), the next ones wait for a second
        // from when the first of them was merged, and are due then.
        #expect(albums.merge(slices[0], at: 10) == nil)
        #expect(all.photos.count == MergeSlices.size)
        #expect(albums.merge(slices[1], at: 10.1) == 10.1 + MergeSlices.handOverInterval)
        #expect(albums.merge(slices[2], at: 10.5) == 10.1 + MergeSlices.handOverInterval)
        #expect(all.photos.count == MergeSlices.size)
        #expect(albums.merge(slices[3], at: 11.1) == nil)
        #expect(all.photos.count == 4 * MergeSlices.size)
        for slice in slices[4...] { albums.merge(slice, at: 11.2) }
        #expect(albums.tree.photoCount == 8 * MergeSlices.size)
        #expect(all.photos.count == 4 * MergeSlices.size)
        // The walk's end hands over the rest.
        albums.finish(.success(8 * MergeSlices.size))
        #expect(all.photos.count == 8 * MergeSlices.size)
        #expect(splices == 3)
        // Photos that wait go when the source says so (no slice came by in time).
        albums.merge([FolderPhotos(folder: here, photos: [photo("later.jpg", in: here)])], at: 20)
        #expect(all.photos.photo(id: here.uri + "/later.jpg") == nil)
        albums.handOverWaiting()
        #expect(all.photos.photo(id: here.uri + "/later.jpg") != nil)
        // A hand-over that took long spaces the next ones as many times longer.
        var clock = 40.0
        albums.clock = { clock }
        all.observeChanges { _ in clock += 0.5 }
        albums.merge([FolderPhotos(folder: here, photos: [photo("slow.jpg", in: here)])], at: 40)
        albums.handOverWaiting()
        #expect(albums.merge([FolderPhotos(folder: here, photos: [photo("slower.jpg", in: here)])], at: 41) == 46)
        #expect(albums.merge([FolderPhotos(folder: here, photos: [photo("slowest.jpg", in: here)])], at: 46) == nil)
        #expect(all.photos.photo(id: here.uri + "/slower.jpg") != nil)
        // A change while slices wait for the albums comes after them.
        albums.merge([FolderPhotos(folder: here, photos: [photo("late.jpg", in: here)])], at: 30)
        albums.forget([here.uri + "/0-0.jpg"])
        #expect(all.photos.photo(id: here.uri + "/late.jpg") != nil)
        #expect(all.photos.photo(id: here.uri + "/0-0.jpg") == nil)
        #expect(all.photos.count == 8 * MergeSlices.size + 4)
    }
}
