@testable import PhotoCore
import Testing

@Suite struct DecoderMessageTests {
    private func roundTrip(_ message: DecoderMessage) throws -> DecoderMessage {
        try DecoderMessage(decoding: message.encoded())
    }

    @Test func everyValueTypeSurvivesTheWire() throws {
        let message = DecoderMessage(kind: .reply, fields: [
            1: .int(-42), 2: .double(2.5), 3: .text("été 📷"), 4: .ints([0, Int64.max, Int64.min]), 9: .text(""),
        ])
        #expect(try roundTrip(message) == message)
    }

    @Test func requestsRepliesAndReadyMessagesSurviveTheWire() throws {
        let request = DecoderRequest(id: 77, operation: .picture, fitting: PixelSize(width: 256, height: 200),
                                     maxPixels: 50_000_000, maxFrames: 12, maxBytes: 1 << 20, name: "cat.gif")
        #expect(try DecoderRequest(roundTrip(request.message)) == request)
        let thumbnail = DecoderRequest(id: 78, operation: .thumbnailFile, fitting: PixelSize(width: 128, height: 128))
        #expect(try DecoderRequest(roundTrip(thumbnail.message)) == thumbnail)

        let layout = PixelLayout(frames: PixelLayout.packed([(PixelSize(width: 10, height: 5), 100), (PixelSize(width: 10, height: 5), 40)], hasAlpha: true),
                                 hasAlpha: true, sourceSize: PixelSize(width: 40, height: 20), format: "gif", loops: false)
        var cutShort = PixelLayout(frames: PixelLayout.packed([(PixelSize(width: 10, height: 5), 0)], hasAlpha: false),
                                   hasAlpha: false, sourceSize: PixelSize(width: 10, height: 5), format: "jpeg")
        cutShort.endMissing = true
        var details = PhotoDetails(uri: "", name: "")
        details.camera = "Canon EOS R5"
        details.fNumber = 5.6
        details.dimensions = PixelSize(width: 8192, height: 5464)
        details.latitude = -33.9
        for outcome: DecoderReply.Outcome in [
            .pixels(layout), .pixels(cutShort), .date(.taken(1_700_000_000_000_000)), .date(.noDate), .date(nil),
            .properties(details), .failure(DecodeFailure(.unsafe, "Could not be decoded safely.")),
            .failure(DecodeFailure(.timedOut, "Decoding took too long; it will be tried again.")), .probe("read x: failed"),
            .dates([.taken(-5), .noDate, nil, .taken(1_700_000_000_000_000)]), .dates([]),
            .dates([.noDate, .taken(7), .noDate], cutShort: [0, 2]),
            .dates([.noDate, .taken(7), nil], cameras: ["", "Canon EOS R5", ""]),
            .thumbnailFile(PixelLayout(frames: PixelLayout.packed([(PixelSize(width: 128, height: 96), 0)], hasAlpha: false),
                                       hasAlpha: false, sourceSize: PixelSize(width: 256, height: 192), format: "png"),
                           text: ["Thumb::URI": "file:///photos/caf%C3%A9.jpg", "Thumb::MTime": "1700000000", "Thumb::Size": "-1x"]),
        ] {
            let reply = DecoderReply(id: 9, outcome: outcome)
            #expect(try DecoderReply(roundTrip(reply.message)) == reply)
        }
        let ready = DecoderReady(pid: 1, confinements: ["seccomp", "Landlock ABI 4"], missing: ["bubblewrap"])
        #expect(try DecoderReady(roundTrip(ready.message)) == ready)
        #expect(try DecoderCancel(roundTrip(DecoderCancel(id: 5).message)) == DecoderCancel(id: 5))
    }

    @Test func everyPrefixOfAMessageIsRefused() throws {
        let bytes = DecoderRequest(id: 1, operation: .still, name: "a.jpg").message.encoded()
        for end in 0..<bytes.count {
            #expect(throws: DecoderMessage.Malformed.self) { try DecoderMessage(decoding: bytes[0..<end]) }
        }
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderMessage(decoding: bytes + [0]) }
    }

    @Test func malformedHeadersAndFieldsAreRefusedWithAReason() {
        let good = DecoderMessage(kind: .cancel, fields: [1: .int(3)]).encoded()
        func refused(_ bytes: [UInt8]) -> String? {
            do {
                _ = try DecoderMessage(decoding: bytes)
                return nil
            } catch {
                return error.reason
            }
        }
        var badMagic = good
        badMagic[0] = UInt8(ascii: "X")
        #expect(refused(badMagic) == "not a decoder message")
        var badVersion = good
        badVersion[4] = 9
        #expect(refused(badVersion) == "unknown version 9")
        var badKind = good
        badKind[5] = 200
        #expect(refused(badKind) == "unknown kind 200")
        var badType = good
        badType[9] = 7
        #expect(refused(badType) == "unknown value type 7")
        // The same tag twice.
        let twice = Array("GPBM".utf8) + [1, 3, 2, 0] + [1, 0] + [UInt8](repeating: 0, count: 8) + [1, 0] + [UInt8](repeating: 0, count: 8)
        #expect(refused(twice) == "tag 1 twice")
        // Text that is not UTF-8, and text longer than the limit.
        let notUTF8 = Array("GPBM".utf8) + [1, 3, 1, 0] + [1, 2, 2, 0, 0xC3, 0x28]
        #expect(refused(notUTF8) == "text is not UTF-8")
        let long = Array("GPBM".utf8) + [1, 3, 1, 0] + [1, 2, 0x01, 0x10] + [UInt8](repeating: 0x41, count: 4097)
        #expect(refused(long) == "text too long (4097 bytes)")
        let tooBig = [UInt8](repeating: 0, count: DecoderMessage.maxSize + 1)
        #expect(refused(tooBig)?.hasPrefix("message too long") == true)
    }

    @Test func encodingCutsTextAtACharacterBoundary() throws {
        let text = String(repeating: "é", count: 3000)  // 6000 bytes
        let message = try roundTrip(DecoderMessage(kind: .reply, fields: [1: .text(text)]))
        let kept = try #require(message.text(1))
        #expect(kept.utf8.count <= DecoderMessage.maxTextBytes)
        #expect(kept == String(repeating: "é", count: kept.count))
    }

    @Test func repliesOutOfRangeAreRefused() {
        var message = DecoderReply(id: 1, outcome: .failure(DecodeFailure(.corrupt, "x"))).message
        message.fields[DecoderReply.Tag.failureKind.rawValue] = .int(99)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderReply(message) }
        var frames = DecoderReply(id: 1, outcome: .pixels(PixelLayout(frames: PixelLayout.packed([(PixelSize(width: 2, height: 2), 0)], hasAlpha: false),
                                                                    hasAlpha: false, sourceSize: PixelSize(width: 2, height: 2), format: "png"))).message
        frames.fields[DecoderReply.Tag.frames.rawValue] = .ints([0, 2, 2, 8])  // not a multiple of five
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderReply(frames) }
        frames.fields[DecoderReply.Tag.frames.rawValue] = .ints([-1, 2, 2, 8, 0])
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderReply(frames) }
        var request = DecoderRequest(id: 1, operation: .still).message
        request.fields[DecoderRequest.Tag.width.rawValue] = .int(0)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(request) }
        request = DecoderRequest(id: 1, operation: .still).message
        request.fields[DecoderRequest.Tag.operation.rawValue] = .int(14)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(request) }
    }

    @Test func marksRequestsAndRepliesCrossWhole() throws {
        let marks = PhotoMarks(favourite: true, rating: 3, tags: ["a", "雪"])
        let request = DecoderRequest(id: 7, operation: .mergedSidecar, marks: marks)
        #expect(try DecoderRequest(request.message) == request)
        let reply = DecoderReply(id: 7, outcome: .marks(marks))
        #expect(try DecoderReply(reply.message) == reply)
        let sidecar = DecoderReply(id: 7, outcome: .sidecar(byteCount: 900))
        #expect(try DecoderReply(sidecar.message) == sidecar)
        var bad = reply.message
        bad.fields[DecoderReply.Tag.rating.rawValue] = .int(6)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderReply(bad) }
    }

    @Test func orientationRequestsAndRepliesCrossWholeAndOutOfRangeOnesAreRefused() throws {
        for request in [DecoderRequest(id: 7, operation: .orientation, quarterTurns: -1),
                        DecoderRequest(id: 8, operation: .orientation, orientation: 6),
                        DecoderRequest(id: 9, operation: .orientation)] {
            #expect(try DecoderRequest(request.message) == request)
        }
        var request = DecoderRequest(id: 7, operation: .orientation, quarterTurns: 1).message
        request.fields[DecoderRequest.Tag.quarterTurns.rawValue] = .int(4)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(request) }
        request = DecoderRequest(id: 7, operation: .orientation, orientation: 1).message
        request.fields[DecoderRequest.Tag.orientation.rawValue] = .int(9)
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderRequest(request) }

        let reply = DecoderReply(id: 3, outcome: .orientationEdit(found: 6, segment: 20..<400, byteCount: 376))
        #expect(try DecoderReply(reply.message) == reply)
        let asked = DecoderReply(id: 3, outcome: .orientationEdit(found: 1, segment: 2..<2, byteCount: 0))
        #expect(try DecoderReply(asked.message) == asked)
        for (tag, value) in [(DecoderReply.Tag.orientationFound, Int64(0)), (.segmentStart, 1), (.segmentEnd, 19),
                             (.segmentEnd, 20 + 0xFFFF + 3), (.exifBytes, 0x10000)] {
            var message = reply.message
            message.fields[tag.rawValue] = .int(value)
            #expect(throws: DecoderMessage.Malformed.self, "\(tag) \(value)") { try DecoderReply(message) }
        }
    }

    /// Found by the fuzzer: a UTC offset of Int64.min made the browser trap in abs().
    @Test func outOfRangeNumbersInPropertiesAreLeftOut() throws {
        var message = DecoderReply(id: 1, outcome: .properties(PhotoDetails(uri: "", name: ""))).message
        for offset in [Int64.min, Int64.max, -86_401, 86_401] {
            message.fields[DecoderReply.Tag.dateOffset.rawValue] = .int(offset)
            guard case .properties(let details) = try DecoderReply(message).outcome else {
                Issue.record("not a properties reply")
                continue
            }
            #expect(details.dateTakenOffset == nil, "offset \(offset)")
        }
        message.fields[DecoderReply.Tag.dateOffset.rawValue] = .int(-18_000)
        guard case .properties(let details) = try DecoderReply(message).outcome else {
            Issue.record("not a properties reply")
            return
        }
        #expect(details.dateTakenOffset == -18_000)
    }

    @Test func aThumbnailFileIsOneFrame() throws {
        let size = PixelSize(width: 10, height: 10)
        let two = PixelLayout(frames: PixelLayout.packed([(size, 0), (size, 0)], hasAlpha: false), hasAlpha: false, sourceSize: size, format: "png")
        let message = DecoderReply(id: 3, outcome: .thumbnailFile(two, text: [:])).message
        #expect(throws: DecoderMessage.Malformed.self) { try DecoderReply(message) }
    }

    @Test func aLayoutMustLieInsideItsMemory() throws {
        let size = PixelSize(width: 100, height: 50)
        let layout = PixelLayout(frames: PixelLayout.packed([(size, 0), (size, 0)], hasAlpha: false), hasAlpha: false,
                                 sourceSize: size, format: "gif")
        let needed = layout.totalBytes
        #expect(needed == 2 * 300 * 50)
        try layout.check(memorySize: needed)
        #expect(throws: DecoderMessage.Malformed.self) { try layout.check(memorySize: needed - 1) }

        var lying = layout
        lying.frames[1].offset = Int.max - 10
        #expect(throws: DecoderMessage.Malformed.self) { try lying.check(memorySize: needed) }
        lying = layout
        lying.frames[0].stride = 299  // shorter than a row
        #expect(throws: DecoderMessage.Malformed.self) { try lying.check(memorySize: needed) }
        lying = layout
        lying.frames[0].size = PixelSize(width: 70_000, height: 1)
        #expect(throws: DecoderMessage.Malformed.self) { try lying.check(memorySize: Int.max) }
        lying = layout
        lying.frames = []
        #expect(throws: DecoderMessage.Malformed.self) { try lying.check(memorySize: needed) }
    }

    @Test func rowsMayBePaddedAsLoadersAlignThemButNoMore() throws {
        // libheif's loader gives a one-pixel-wide image rows of 192 bytes.
        let one = PixelSize(width: 1, height: 4)
        let padded = PixelLayout(frames: [.init(offset: 0, size: one, stride: 192)], hasAlpha: true, sourceSize: one, format: "heif")
        try padded.check(memorySize: 192 * 4)
        var excessive = padded
        excessive.frames[0].stride = 4 + PixelLayout.maxRowPadding + 1
        #expect(throws: DecoderMessage.Malformed.self) { try excessive.check(memorySize: Int.max) }
    }
}
