import Testing
@testable import PhotoCore

/// The tables and checks a large listing goes through for every photo: where each photo of
/// the tree is, whether a name pairs, and the slices the main thread merges.
@Suite struct FolderTreeSlotsTests {
    @Test func theSlotsTableAgreesWithADictionaryThroughInsertionsMovesAndRemovals() {
        var slots = FolderTreeSlots()
        var model: [String: FolderTreeSlots.Slot] = [:]
        // A pool small enough that ids come back often: removals leave gaps in long runs of
        // the table, which the entries after them must close without getting lost.
        let ids = (0..<600).map { "file:///photos/IMG_\($0).JPG" }
        var random = SystemRandomNumberGenerator()
        for step in 0..<40_000 {
            let id = ids[Int.random(in: 0..<ids.count, using: &random)]
            if Int.random(in: 0..<3, using: &random) == 0 {
                slots[id] = nil
                model[id] = nil
            } else {
                let slot = FolderTreeSlots.Slot(folder: Int32(step % 7), index: Int32(step))
                slots[id] = slot
                model[id] = slot
            }
            #expect(slots.count == model.count)
            if step % 997 == 0 {
                for id in ids { #expect(slots[id] == model[id], "\(id) at step \(step)") }
            }
        }
        for id in ids { #expect(slots[id] == model[id]) }
        // A photo is looked up by the hash its id got when it was listed: the same place.
        for id in ids {
            let photo = Photo(id: id, displayName: String(id.split(separator: "/").last!), modified: 1, size: 1, contentType: "image/jpeg")
            #expect(slots[FolderTreeSlots.Key(photo)] == model[id])
        }
        slots.reserveCapacity(100_000)
        for id in ids { #expect(slots[id] == model[id]) }
        for id in ids { slots[id] = nil }
        #expect(slots.isEmpty && slots[ids[0]] == nil)
    }

    @Test func theQuickCheckOfANameAgreesWithItsRole() {
        let names = [
            "IMG_0042.CR2", "img_0042.cr2", "x.Nef", "x.MOV", "x.mov", "x.jpg", "x.JPEG", "x.heic", "x.png",
            "x.tiff", "x.cr22", "x.", ".cr2", ".mov", "noextension", "a.b.nef", "a.nef.jpg", "été.NEF",
            "照片.cr2", "x.\u{212A}25", "x.\u{212A}DC", "\u{0600}.cr2", "x.cr2\u{301}", "x\u{301}.cr2", "x.mo\u{301}v",
            "photo-000123.jpg", "IMG_0001.DNG", "a/b.arw", "IMG_20240101_123456.CR2", "IMG_20240101_123456.JPG",
            "holiday-2024-0123.MOV", "holiday-2024-0123.mov\u{301}",
        ]
        for name in names {
            let role = PairedFiles.role(ofName: name)?.role
            #expect(PairedFiles.pairsWithStill(name: name) == (role == .raw || role == .liveMovie), "\(name)")
            // Asked of a photo: a long plain name is read from the end of its URI.
            #expect(PairedFiles.pairsWithStill(photo(name)) == PairedFiles.pairsWithStill(name: name), "\(name)")
            #expect(photo(name).withDisplayNameUTF8 { String(decoding: $0, as: UTF8.self) } == name)
        }
        // The Kelvin sign lowers to "k": a RAW file's extension, whatever its bytes.
        #expect(PairedFiles.pairsWithStill(name: "x.\u{212A}25"))
        #expect(!PairedFiles.pairsWithStill(name: "photo-000123.jpg"))
    }

    @Test func slicesKeepTheOrderAndTheFoldersOfWhatWasDelivered() {
        let folders = (0..<4).map { TreeFolder(uri: "file:///p/\($0)", path: $0 == 0 ? [] : ["\($0)"]) }
        func batch(_ folder: Int, _ count: Int) -> FolderPhotos {
            FolderPhotos(folder: folders[folder], photos: (0..<count).map {
                Photo(id: folders[folder].uri + "/\($0).jpg", displayName: "\($0).jpg", modified: 1, size: 1, contentType: "image/jpeg")
            })
        }
        let batches = [batch(0, 3), batch(1, 0), batch(2, 4), batch(3, 2), batch(0, 5)]
        let slices = MergeSlices.slices(of: batches, size: 5)
        #expect(slices.map { $0.map { "\($0.folder.uri.suffix(1)):\($0.photos.count)" } }
            == [["0:3", "1:0", "2:2"], ["2:2", "3:2", "0:1"], ["0:4"]])
        let delivered = batches.flatMap { $0.photos.map(\.id) }
        #expect(slices.flatMap { $0.flatMap { $0.photos.map(\.id) } } == delivered)
        #expect(slices.allSatisfy { $0.reduce(0) { $0 + $1.photos.count } <= 5 })
    }
}
