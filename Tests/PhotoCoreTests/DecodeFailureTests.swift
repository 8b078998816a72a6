import PhotoCore
import Testing

@Suite struct DecodeFailureTests {
    @Test func aLibrarysMessageOnSeveralLinesIsOneLine() {
        // libheif's messages end in a newline; some span lines.
        let failure = DecodeFailure(.corrupt, "The image is damaged: Invalid input: Unexpected end of file\n  (points to file position 4930)\n")
        #expect(failure.reason == "The image is damaged: Invalid input: Unexpected end of file (points to file position 4930)")
    }

    @Test func aMessageOnOneLineIsKeptAsItIs() {
        #expect(DecodeFailure(.tooLarge, "The image is too large  to open safely.").reason == "The image is too large  to open safely.")
    }
}
