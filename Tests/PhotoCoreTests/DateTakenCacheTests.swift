import Testing
@testable import PhotoCore

@Suite struct DateTakenCacheTests {
    private func sample() -> DateTakenCache {
        var cache = DateTakenCache()
        cache.store("file:///home/ann/Photos/IMG_0001.JPG", modified: 1_700_000_000_000_000, size: 4_200_000, value: .taken(1_600_000_000_123_000))
        cache.store("file:///home/ann/Photos/IMG_0002.JPG", modified: 1_700_000_001_000_000, size: 4_300_000, value: .noDate)
        cache.store("file:///home/ann/Photos/IMG_0010.JPG", modified: -5, size: 0, value: .taken(-86_400_000_000))
        cache.store("/home/ann/Fotos/été/crème brûlée.jpg", modified: 1, size: 2, value: .taken(3))
        cache.store("sftp://host/x.jpg", modified: Int64.max, size: Int64.max, value: .taken(Int64.min))
        return cache
    }

    @Test func lookupFindsWhatWasStoredForTheSameFile() {
        let cache = sample()
        #expect(cache.lookup("file:///home/ann/Photos/IMG_0001.JPG", modified: 1_700_000_000_000_000, size: 4_200_000) == .taken(1_600_000_000_123_000))
        #expect(cache.lookup("file:///home/ann/Photos/IMG_0002.JPG", modified: 1_700_000_001_000_000, size: 4_300_000) == .noDate)
        #expect(cache.lookup("file:///home/ann/Photos/IMG_0002.JPG", modified: 1_700_000_001_000_000, size: 4_300_000)?.dateTaken == nil)
        #expect(cache.count == 5)
    }

    @Test func lookupMissesWhenTheFileChanged() {
        let cache = sample()
        #expect(cache.lookup("file:///home/ann/Photos/IMG_0001.JPG", modified: 1_700_000_000_000_001, size: 4_200_000) == nil)
        #expect(cache.lookup("file:///home/ann/Photos/IMG_0001.JPG", modified: 1_700_000_000_000_000, size: 4_200_001) == nil)
        #expect(cache.lookup("file:///home/ann/Photos/IMG_9999.JPG", modified: 0, size: 0) == nil)
    }

    @Test func storingAgainReplacesAndRemoveForgets() {
        var cache = sample()
        cache.store("sftp://host/x.jpg", modified: 7, size: 8, value: .noDate)
        #expect(cache.lookup("sftp://host/x.jpg", modified: Int64.max, size: Int64.max) == nil)
        #expect(cache.lookup("sftp://host/x.jpg", modified: 7, size: 8) == .noDate)
        cache.remove("sftp://host/x.jpg")
        #expect(cache.lookup("sftp://host/x.jpg", modified: 7, size: 8) == nil)
        #expect(cache.count == 4)
    }

    @Test func mergeTakesTheOtherCachesEntries() {
        var mine = sample()
        var theirs = DateTakenCache()
        theirs.store("file:///home/ann/Photos/IMG_0002.JPG", modified: 9, size: 9, value: .taken(9))
        theirs.store("file:///new.jpg", modified: 1, size: 1, value: .noDate)
        mine.merge(theirs)
        #expect(mine.count == 6)
        #expect(mine.lookup("file:///home/ann/Photos/IMG_0002.JPG", modified: 9, size: 9) == .taken(9))
    }

    @Test func aCacheReadsBackExactlyAsWritten() {
        let cache = sample()
        #expect(DateTakenCache(serialized: cache.serialized()) == cache)
        #expect(DateTakenCache(serialized: DateTakenCache().serialized()) == DateTakenCache())
    }

    @Test func theFileStartsWithAVersionedHeader() {
        let bytes = sample().serialized()
        #expect(Array(bytes.prefix(9)) == Array("GPBDATES".utf8) + [UInt8(DateTakenCache.formatVersion)])
    }

    @Test func aBigFolderIsStoredCompactly() {
        var cache = DateTakenCache()
        for i in 0..<3_000 {
            cache.store("file:///home/someone/Pictures/2023/Holidays/IMG_\(10_000 + i).JPG",
                        modified: 1_690_000_000_000_000 + Int64(i) * 1_000_003, size: 3_000_000 + Int64(i * 37),
                        value: i % 10 == 0 ? .noDate : .taken(1_680_000_000_000_000 + Int64(i) * 2_000_000))
        }
        let bytes = cache.serialized()
        #expect(bytes.count < 3_000 * 32)
        #expect(DateTakenCache(serialized: bytes) == cache)
    }

    @Test func everyTruncationYieldsAnEmptyCache() {
        let bytes = sample().serialized()
        for length in 0..<bytes.count {
            #expect(DateTakenCache(serialized: bytes[0..<length]).isEmpty, "length \(length)")
        }
    }

    @Test func anyDamagedByteYieldsAnEmptyCache() {
        let bytes = sample().serialized()
        for i in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[i] ^= flip
                #expect(DateTakenCache(serialized: damaged).isEmpty, "byte \(i) ^ \(flip)")
            }
        }
        #expect(DateTakenCache(serialized: bytes + [0]).isEmpty)
    }

    @Test func garbageYieldsAnEmptyCache() {
        var rng = SeededGenerator(seed: 5)
        for length in [0, 1, 8, 17, 18, 100, 4096] {
            for _ in 0..<50 {
                let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                #expect(DateTakenCache(serialized: noise).isEmpty)
                #expect(DateTakenCache(serialized: Array("GPBDATES".utf8) + noise).isEmpty)
            }
        }
        #expect(DateTakenCache(serialized: Array("not a cache at all, just text\n".utf8)).isEmpty)
    }

    @Test func anotherVersionYieldsAnEmptyCache() {
        var bytes = Array(sample().serialized().dropLast(8))
        bytes[8] = 2
        #expect(DateTakenCache(serialized: withChecksum(bytes)).isEmpty)
    }

    /// Damage that carries a valid checksum still cannot crash the reader or make it
    /// allocate what the file claims: an absurd count, keys sharing more than exists,
    /// keys out of order, invalid UTF-8, an unknown tag, overlong varints.
    @Test func wellChecksummedNonsenseYieldsAnEmptyCache() {
        let magic = Array("GPBDATES".utf8)
        let bodies: [[UInt8]] = [
            magic + [1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],                        // 4 billion entries
            magic + [1, 1, 5, 1, 0x61, 0, 0, 0],                              // shares 5 bytes with nothing
            magic + [1, 2, 0, 1, 0x62, 0, 0, 0, 0, 1, 0x61, 0, 0, 0],         // "b" then "a"
            magic + [1, 2, 0, 1, 0x61, 0, 0, 0, 1, 0, 0, 0, 0],               // "a" then "a" again
            magic + [1, 1, 0, 2, 0xC3, 0x28, 0, 0, 0],                        // invalid UTF-8
            magic + [1, 1, 0, 1, 0x61, 0, 0, 7],                              // tag 7
            magic + [1, 1, 0, 1, 0x61, 0, 0, 1],                              // tag 1 without a date
            magic + [1, 1, 0, 1, 0x61] + Array(repeating: 0xFF, count: 11),   // a varint past 64 bits
            magic + [1, 1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x61],            // a 4 GiB key
            magic + [1, 0, 0],                                                // bytes after the last entry
        ]
        for body in bodies {
            #expect(DateTakenCache(serialized: withChecksum(body)).isEmpty, "\(body)")
        }
        // The same framing with sane content does read, so the cases above fail for their reason.
        var good = DateTakenCache()
        good.store("a", modified: 0, size: 0, value: .noDate)
        #expect(DateTakenCache(serialized: withChecksum(magic + [1, 1, 0, 1, 0x61, 0, 0, 0])) == good)
    }
    @Test func mergingIntoTheFileGivesWhatMergingInMemoryGives() {
        var changes = DateTakenCache()
        changes.store("file:///home/ann/Photos/IMG_0002.JPG", modified: 9, size: 9, value: .taken(9))  // replaces
        changes.store("file:///a-first.jpg", modified: 1, size: 1, value: .noDate)                       // before all
        changes.store("file:///home/ann/Photos/IMG_0005.JPG", modified: 2, size: 2, value: .taken(2))   // between
        changes.store("zzz://last.jpg", modified: 3, size: 3, value: .taken(3))                          // after all
        var expected = sample()
        expected.merge(changes)
        let merged = DateTakenCache.serialized(merging: sample().serialized(), with: changes)
        #expect(merged == expected.serialized())
        #expect(DateTakenCache(serialized: merged) == expected)
        // Nothing saved yet, or a damaged file: the changes alone.
        #expect(DateTakenCache.serialized(merging: [], with: changes) == changes.serialized())
        var damaged = sample().serialized()
        damaged[20] ^= 1
        #expect(DateTakenCache.serialized(merging: damaged, with: changes) == changes.serialized())
    }

    @Test func writingInPiecesGivesTheSameBytesAndStopsWhereAWriteFails() {
        var changes = DateTakenCache()
        changes.store("file:///home/ann/Photos/IMG_0005.JPG", modified: 2, size: 2, value: .taken(2))
        changes.store("zzz://last.jpg", modified: 3, size: 3, value: .noDate)
        let file = sample().serialized()
        let whole = DateTakenCache.serialized(merging: file, with: changes)
        for source in [file, []] {
            var pieces: [[UInt8]] = []
            #expect(DateTakenCache.write(merging: source, with: changes, chunkSize: 7) { pieces.append($0); return true })
            #expect(pieces.count > 2)
            #expect(pieces.dropLast().allSatisfy { $0.count >= 7 })
            #expect(Array(pieces.joined()) == DateTakenCache.serialized(merging: source, with: changes))
        }
        var handed = 0
        #expect(!DateTakenCache.write(merging: file, with: changes, chunkSize: 7) { _ in handed += 1; return false })
        #expect(handed == 1)
        #expect(DateTakenCache(serialized: whole).count == sample().count + 2)
    }

    @Test func lookingUpInTheFileFindsOnlyTheSameFiles() {
        let bytes = sample().serialized()
        let keys: [(key: String, modified: Int64, size: Int64)] = [
            ("file:///home/ann/Photos/IMG_0002.JPG", 1_700_000_001_000_000, 4_300_000),
            ("file:///home/ann/Photos/IMG_0001.JPG", 1_700_000_000_000_001, 4_200_000),  // changed since
            ("file:///elsewhere.jpg", 1, 1),
            ("/home/ann/Fotos/été/crème brûlée.jpg", 1, 2),
        ]
        var found: [Int: DateTakenCache.Value] = [:]
        DateTakenCache.lookUp(keys, inSerialized: bytes) { found[$0] = $1 }
        #expect(found == [0: .noDate, 3: .taken(3)])
        var damaged = bytes
        damaged[damaged.count - 1] ^= 1
        found = [:]
        DateTakenCache.lookUp(keys, inSerialized: damaged) { found[$0] = $1 }
        #expect(found.isEmpty)
    }
}

/// `body` followed by its FNV-1a 64 checksum, little-endian, as the format ends.
private func withChecksum(_ body: [UInt8]) -> [UInt8] {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    return body + (0..<8).map { UInt8(truncatingIfNeeded: hash >> UInt64($0 * 8)) }
}
