import PhotoCore
import Testing

struct CameraNamesTests {
    /// Where a string's bytes are: the same place for two strings that share their storage.
    private func storage(_ text: String) -> UnsafeRawPointer? {
        var copy = text
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func aCameraNamedByManyPhotosIsOneString() {
        // Two strings made apart, as two replies' lines are.
        let first = String(decoding: Array("Canon EOS 5D Mark IV".utf8), as: UTF8.self)
        let second = String(decoding: Array("Canon EOS 5D Mark IV".utf8), as: UTF8.self)
        #expect(storage(first) != storage(second))
        let sharedFirst = CameraNames.shared(first), sharedSecond = CameraNames.shared(second)
        #expect(sharedFirst == "Canon EOS 5D Mark IV" && sharedSecond == sharedFirst)
        #expect(storage(sharedFirst) == storage(sharedSecond))
    }

    @Test func aShortNameIsKeptAsItComes() {
        #expect(CameraNames.shared("NIKON D70") == "NIKON D70")
        #expect(CameraNames.shared("") == "")
    }
}
