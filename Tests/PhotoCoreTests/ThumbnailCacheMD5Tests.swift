import Testing
@testable import PhotoCore

@Suite("MD5 for thumbnail names")
struct ThumbnailCacheMD5Tests {
    /// The test suite of RFC 1321, appendix A.5.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321Vectors(message: String, digest: String) {
        #expect(MD5.hex(message) == digest)
    }

    /// Lengths around the padding boundaries (55/56 bytes leave no room for the length;
    /// 64 is one whole block). Digests from Python's hashlib.
    @Test(arguments: [
        (55, "52c0e574e1198de5fe3f8f11440dcb1b"),
        (56, "46c9907fc908ee68b1e7b8e71286a518"),
        (57, "1c805dd236c35cab25fcb1bc73802c51"),
        (63, "a62f6d59e837867693f042f5b8f5a236"),
        (64, "7160b8fb5e9e4023d549c3971fbaeead"),
        (65, "70bd662e7aefbda85a0f7244167b7897"),
        (127, "acce2474d6cc8302120d09c818d17ef7"),
        (128, "10b2da1a82f16d99a81a7203fe9f02cb"),
        (1000, "10046f077f2082ac19676b8079f1cb1a"),
    ])
    func blockBoundaries(length: Int, digest: String) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        #expect(MD5.hex(MD5.digest(bytes)) == digest)
    }

    @Test func feedingInPiecesGivesTheSameDigest() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for pieceLength in [1, 3, 63, 64, 65, 200] {
            var md5 = MD5()
            var start = 0
            while start < bytes.count {
                let end = min(start + pieceLength, bytes.count)
                md5.update(bytes[start..<end])
                start = end
            }
            #expect(MD5.hex(md5.finalize()) == "10046f077f2082ac19676b8079f1cb1a", "pieces of \(pieceLength)")
        }
    }

    @Test func aMillionAs() {
        #expect(MD5.hex(MD5.digest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))) == "7707d6ae4e027c70eea2a935c2296f21")
    }

    @Test func theSpecificationsExampleName() {
        // The Thumbnail Managing Standard's own example.
        #expect(ThumbnailCacheLayout.fileName(forURI: "file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697.png")
        // The URI's bytes as escaped, not the name they stand for.
        #expect(ThumbnailCacheLayout.fileName(forURI: "file:///tmp/caf%C3%A9.jpg") == "a90eb2ad68eb076f8591acdfbe90d1c6.png")
    }
}
