import Testing
@testable import PhotoCore

@Suite struct NaturalSortKeyTests {
    private func sortedNames(_ names: [String]) -> [String] {
        names.map { photo($0) }.sorted(by: PhotoOrder.byName.areInIncreasingOrder).map(\.displayName)
    }

    @Test func numbersCompareByValue() {
        #expect(NaturalSortKey("IMG_2") < NaturalSortKey("IMG_10"))
        #expect(sortedNames(["IMG_10.jpg", "IMG_2.jpg", "IMG_1.jpg", "IMG_100.jpg"])
            == ["IMG_1.jpg", "IMG_2.jpg", "IMG_10.jpg", "IMG_100.jpg"])
    }

    @Test func caseIsIgnored() {
        #expect(NaturalSortKey("Beach.JPG") == NaturalSortKey("beach.jpg"))
        #expect(sortedNames(["b.jpg", "A.jpg", "C.jpg"]) == ["A.jpg", "b.jpg", "C.jpg"])
    }

    @Test func leadingZerosDoNotChangeTheValue() {
        #expect(NaturalSortKey("img01") == NaturalSortKey("img1"))
        #expect(NaturalSortKey("img007") < NaturalSortKey("img10"))
        #expect(NaturalSortKey("img0") == NaturalSortKey("img000"))
    }

    @Test func equalKeysFallBackToTheIDForATotalOrder() {
        let a = photo("img01", id: "file:///photos/a")
        let b = photo("img1", id: "file:///photos/b")
        let order = PhotoOrder.byName
        #expect(order.areInIncreasingOrder(a, b))
        #expect(!order.areInIncreasingOrder(b, a))
        #expect(!order.areInIncreasingOrder(a, a))
        // Whatever order they arrive in, the result is the same.
        #expect([a, b].sorted(by: order.areInIncreasingOrder) == [b, a].sorted(by: order.areInIncreasingOrder))
    }

    @Test func aPrefixSortsFirstAndDigitsBeforeLetters() {
        #expect(NaturalSortKey("a") < NaturalSortKey("a1"))
        #expect(NaturalSortKey("a1") < NaturalSortKey("ab"))
        #expect(sortedNames(["ab", "a1", "a"]) == ["a", "a1", "ab"])
    }

    @Test(arguments: ["Ünïcödé.jpg", "日本語 2.png", "emoji 🎉 10.jpg", "İstanbul.jpg", "ß", "", "\u{FFFD}bad", "٣٤.jpg"])
    func nonASCIINamesProduceAComparableKey(_ name: String) {
        let key = NaturalSortKey(name)
        #expect(key == NaturalSortKey(name))
        #expect(!(key < key))
        #expect(NaturalSortKey("") < key || name.isEmpty)
    }

    @Test func nonASCIINamesSortConsistently() {
        let names = ["Ünïcödé 10.jpg", "Ünïcödé 9.jpg", "日本語 2.png", "zebra.jpg", "emoji 🎉.jpg"]
        let once = sortedNames(names)
        #expect(sortedNames(once.reversed()) == once)
        #expect(once.firstIndex(of: "Ünïcödé 9.jpg")! < once.firstIndex(of: "Ünïcödé 10.jpg")!)
    }

    @Test func keysOfAnyLengthSortByTheirBytes() {
        // Around the 24 bytes held inline (in words of 8), and past them.
        let names = ["a", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopa",
                     "abcdefghijklmnopqrstuvw", "abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwxy", "abcdefghijklmnopqrstuvwxa",
                     "abcdefghijklmnopqrstuvwx1", "abcdefghijklmnopqrstuvwx01", "holiday-2024-0123.jpg", "holiday-2024-0123.jpeg",
                     "abcdefghijklmnop1", "abcdefghijklmnop01", "IMG_20240101_123456.jpg", "IMG_20240101_123457.jpg",
                     "IMG_20240101_12345.jpg", "photo-000123.jpg", "photo-000124.jpg", "Ünïcödé 10.jpg"]
        let keys = names.map(NaturalSortKey.init)
        for a in keys {
            for b in keys {
                let bytes = a.bytes.lexicographicallyPrecedes(b.bytes) ? -1 : (a.bytes == b.bytes ? 0 : 1)
                #expect(NaturalSortKey.compare(a, b).signum() == bytes, "\(a.bytes) \(b.bytes)")
                #expect((a == b) == (bytes == 0))
            }
        }
        #expect(NaturalSortKey("abcdefghijklmnop01") == NaturalSortKey("abcdefghijklmnop1"))
        #expect(NaturalSortKey("abcdefghijklmnopqrstuvwx01") == NaturalSortKey("abcdefghijklmnopqrstuvwx1"))
        #expect(NaturalSortKey("holiday-2024-0123.jpg").bytes.count == 24)
        #expect(NaturalSortKey("IMG_20240101_123456.jpg").bytes.count == 27)
        #expect(NaturalSortKey("photo-000123.jpg").bytes == Array("photo-".utf8) + [1, 3] + Array("123.jpg".utf8))
    }

    @Test func aPlainNameIsTheEndOfItsURI() {
        let plain = Photo(id: "file:///photos/IMG_20240101_123456.jpg", displayName: "IMG_20240101_123456.jpg", modified: 1, size: 2, contentType: "image/jpeg")
        #expect(plain.displayName == "IMG_20240101_123456.jpg")
        let escaped = Photo(id: "file:///photos/caf%C3%A9%20au%20lait%20long.jpg", displayName: "café au lait long.jpg", modified: 1, size: 2, contentType: "image/jpeg")
        #expect(escaped.displayName == "café au lait long.jpg")
        let other = Photo(id: "file:///photos/abcdefghijklmnopq.jpg", displayName: "not the same name.jpg", modified: 1, size: 2, contentType: "image/jpeg")
        #expect(other.displayName == "not the same name.jpg")
        let partOfAName = Photo(id: "file:///photos/xabcdefghijklmnopq.jpg", displayName: "abcdefghijklmnopq.jpg", modified: 1, size: 2, contentType: "image/jpeg")
        #expect(partOfAName.displayName == "abcdefghijklmnopq.jpg")
        #expect(plain == Photo(id: plain.id, displayName: plain.displayName, modified: 1, size: 2, contentType: "image/jpeg"))
    }

    @Test(arguments: ["a.jpg", "IMG_0001.JPG", "photo-000123.jpg", "IMG_20240101_123456.jpg", "x"])
    func aPhotoNamedByTheEndOfItsURIIsThePhotoGivenThatName(_ name: String) {
        let id = "file:///photos/2024/" + name
        let byLength = Photo(id: id, displayNameLength: name.utf8.count, modified: 1, size: 2, contentType: "image/jpeg")
        let byName = Photo(id: id, displayName: name, modified: 1, size: 2, contentType: "image/jpeg")
        #expect(byLength == byName)
        #expect(byLength.displayName == name)
        #expect(byLength.nameKey == byName.nameKey)
        #expect(byLength.hashValue == byName.hashValue)
    }

    /// The key as it is defined (lowercased bytes, each digit run as a marker, its length and
    /// its significant digits), written the plain way with an array.
    private func definedKey(_ name: String) -> [UInt8] {
        let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
        let lowered = isASCII ? Array(name.utf8).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } : Array(name.lowercased().utf8)
        var out: [UInt8] = [], digits: [UInt8] = [], inRun = false
        func endRun() {
            guard inRun else { return }
            out += digits.isEmpty ? [1, 1, UInt8(ascii: "0")] : [1, UInt8(min(digits.count, 255))] + digits
            digits = []
            inRun = false
        }
        for byte in lowered {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                inRun = true
                if !digits.isEmpty || byte != UInt8(ascii: "0") { digits.append(byte) }
            } else {
                endRun()
                if byte != 0 { out.append(byte) }
            }
        }
        endRun()
        return out
    }

    @Test func theKeyIsTheLoweredNameWithItsDigitRunsMarked() {
        var names = ["", "0", "00", "000a", "a0", "a00b000", "9", "IMG_0001.JPG", "photo-000123.jpg", "A\u{0}B", "x0y0z0",
                     String(repeating: "7", count: 300), "a" + String(repeating: "0", count: 300) + "1", "DSC 12 of 300.NEF",
                     "Ünïcödé 10.JPG", "İSTANBUL 2.jpg", "ΣΊΣΥΦΟΣ 01.jpg", "日本語 2.png", "emoji 🎉 10.jpg", "٣٤.jpg", "ß09Z"]
        // Names made of the characters that matter, the same ones every run.
        let alphabet = Array("aZ09_.- ÄéΣ🎉\u{0}") + ["1", "0", "0"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        for _ in 0..<500 {
            names.append(String((0..<next(41)).map { _ in alphabet[next(alphabet.count)] }))
        }
        for name in names {
            #expect(NaturalSortKey(name).bytes == definedKey(name), "\(name.debugDescription)")
            var text = name
            #expect(text.withUTF8 { NaturalSortKey(utf8: $0) } == NaturalSortKey(name))
        }
    }
}
