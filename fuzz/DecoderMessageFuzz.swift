// libFuzzer target for the decoder message format (DecoderMessage, DecoderRequest,
// DecoderReady, DecoderCancel, DecoderReply, PixelLayout.check) and for the web photo list
// a decoder process hands back in a memory file (WebPhotoList).
//
// Built by build-aux/fuzz.sh together with Sources/PhotoCore as one module; see
// docs/fuzzing.md. Any precondition failure below is a finding.

/// The memory sizes a pixel layout is checked against.
private let memorySizes = [0, 4096, 1 << 30]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    fuzzWebPhotoList(UnsafeRawBufferPointer(bytes))
    guard let message = try? DecoderMessage(decoding: bytes) else { return 0 }

    // The wire format: every value read is within the limits, so re-encoding cuts nothing
    // and gives as many bytes (fields come out in tag order, which may differ from the
    // input's), and the encoding decodes back to itself. Bytes are compared, not messages:
    // a double with a NaN payload is not equal to itself.
    let encoded = message.encoded()
    precondition(encoded.count == size, "re-encoded \(size) bytes as \(encoded.count)")
    guard let again = try? DecoderMessage(decoding: encoded) else {
        fatalError("an encoded message does not decode: \(encoded)")
    }
    precondition(again.encoded() == encoded, "encode(decode(encode(m))) != encode(m)")

    // The typed messages: whatever parses must survive its own message unchanged.
    if let request = try? DecoderRequest(message) {
        let bytes = request.message.encoded()
        guard let back = try? DecoderRequest(DecoderMessage(decoding: bytes)) else {
            fatalError("a request's own message does not parse: \(request)")
        }
        precondition(back == request, "request changed on a round trip: \(request) → \(back)")
        precondition(back.message.encoded() == bytes, "request message not a fixed point")
    }
    if let ready = try? DecoderReady(message) {
        let bytes = ready.message.encoded()
        guard let back = try? DecoderReady(DecoderMessage(decoding: bytes)) else {
            fatalError("a ready message's own message does not parse: \(ready)")
        }
        precondition(back == ready, "ready changed on a round trip: \(ready) → \(back)")
        precondition(back.message.encoded() == bytes, "ready message not a fixed point")
    }
    if let cancel = try? DecoderCancel(message) {
        let bytes = cancel.message.encoded()
        guard let back = try? DecoderCancel(DecoderMessage(decoding: bytes)) else {
            fatalError("a cancel's own message does not parse: \(cancel)")
        }
        precondition(back == cancel, "cancel changed on a round trip: \(cancel) → \(back)")
    }
    if let reply = try? DecoderReply(message) {
        switch reply.outcome {
        case .pixels(let layout), .thumbnailFile(let layout, _): checkLayout(layout)
        default: break
        }
        let bytes = reply.message.encoded()
        guard let back = try? DecoderReply(DecoderMessage(decoding: bytes)) else {
            fatalError("a reply's own message does not parse: \(reply)")
        }
        precondition(back.message.encoded() == bytes, "reply changed on a round trip: \(reply) → \(back)")
        if !hasNaN(reply) {
            precondition(back == reply, "reply changed on a round trip: \(reply) → \(back)")
        }
    }
    return 0
}

/// A layout that passes `check(memorySize:)` must lie inside the memory, computed here
/// without trapping arithmetic.
private func checkLayout(_ layout: PixelLayout) {
    for memorySize in memorySizes {
        guard (try? layout.check(memorySize: memorySize)) != nil else { continue }
        for frame in layout.frames {
            let (bytes, overflow1) = frame.stride.multipliedReportingOverflow(by: frame.size.height)
            let (end, overflow2) = frame.offset.addingReportingOverflow(bytes)
            precondition(!overflow1 && !overflow2 && frame.offset >= 0 && bytes >= 0 && end <= memorySize,
                         "frame \(frame) passed check(memorySize: \(memorySize)) but ends past it")
            precondition(frame.byteCount == bytes)
        }
        _ = layout.totalBytes
    }
}

/// Whether a reply carries a NaN, which `==` never matches.
private func hasNaN(_ reply: DecoderReply) -> Bool {
    guard case .properties(let details) = reply.outcome else { return false }
    return [details.exposureTime, details.fNumber, details.focalLength, details.latitude, details.longitude]
        .contains { $0?.isNaN == true }
}

/// A web photo list that decodes is within every limit, so encoding it again gives the very
/// same bytes, and those decode to the same list.
private func fuzzWebPhotoList(_ bytes: UnsafeRawBufferPointer) {
    guard let list = try? WebPhotoList(decoding: bytes) else { return }
    precondition(list.photoCount <= WebPhotoList.maxPhotos && list.albums.count <= WebPhotoList.maxAlbums)
    for entry in list.photos + list.albums.flatMap(\.photos) {
        precondition(WebAddress.isWebAddress(entry.url), "a list entry that is not a web address: \(entry.url)")
    }
    let encoded = list.encoded()
    precondition(encoded.elementsEqual(bytes), "a decoded list encodes to other bytes")
    let again = encoded.withUnsafeBytes { try? WebPhotoList(decoding: $0) }
    precondition(again == list, "a list changed on a round trip")
}

