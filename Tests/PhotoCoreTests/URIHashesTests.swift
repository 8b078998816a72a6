import Testing
@testable import PhotoCore

@Suite struct URIHashesTests {
    private let folder = (0..<100_000).map { String(format: "file:///photos/photo-%06d.jpg", $0) }

    @Test func aFolderOfURIsIsKnownOnceEach() {
        var set = URIHashes()
        set.reserveCapacity(folder.count)
        var newOnes = 0, newAgain = 0
        for uri in folder where set.insert(uri) { newOnes += 1 }
        for uri in folder where set.insert(uri) { newAgain += 1 }
        #expect(newOnes == folder.count)
        #expect(newAgain == 0)
        #expect(set.count == folder.count)
        let members = set
        #expect(folder.allSatisfy { members.contains($0) })
        #expect(!members.contains("file:///photos/photo-100000.jpg"))
        #expect(!members.contains("file:///other/photo-000001.jpg"))
    }

    @Test func removedAndSubtractedURIsAreNoLongerMembers() {
        var set = URIHashes()
        #expect(set.isEmpty)
        set.formUnion(folder.prefix(10))
        #expect(set.count == 10)
        let removed = set.remove(folder[3]), removedAgain = set.remove(folder[3])
        #expect(removed)
        #expect(!removedAgain)
        #expect(!set.contains(folder[3]))
        set.subtract(folder.prefix(5))
        #expect(set.count == 5)
        let members = set
        #expect(folder[5..<10].allSatisfy { members.contains($0) })
        #expect(!folder.prefix(5).contains { members.contains($0) })
        let insertedAgain = set.insert(folder[0])
        #expect(insertedAgain)
    }

    @Test func photosAddedByTheirListedHashesAreTheirURIs() {
        let photos = folder.prefix(1_000).map { Photo(id: $0, displayName: "p.jpg", modified: 1, size: 1, contentType: "image/jpeg") }
        var set = URIHashes()
        set.formUnion(Array(photos.prefix(500)))
        #expect(set.count == 500)
        let members = set
        // By photo or by URI, the same members.
        #expect(photos.prefix(500).allSatisfy { members.contains($0.id) })
        #expect(!photos.suffix(500).contains { members.contains($0.id) })
        #expect(set.notContained(in: photos).map(\.id) == photos.suffix(500).map(\.id))
        set.subtract(photos.prefix(10).map(\.id))
        let after = set
        #expect(!photos.prefix(10).contains { after.contains($0.id) })
        #expect(after.notContained(in: photos).map(\.id) == (photos.prefix(10) + photos.suffix(500)).map(\.id))
        #expect(URIHashes().notContained(in: photos).count == photos.count)
    }
}
