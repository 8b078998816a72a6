import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

/// The shared test corpus, when this machine has it.
private let corpusRoot = SharedCorpus.root

@Suite struct DateTakenReadingTests {
    private let folder = TempFolder()

    /// A small JPEG made by gdk-pixbuf (it starts with a JFIF APP0 segment).
    private func plainJPEG() -> [UInt8] {
        folder.image("plain.jpg", width: 32, height: 24, type: "jpeg")
        return folder.bytes("plain.jpg")
    }

    private func date(_ fields: [ExifField], littleEndian: Bool = false) -> Int64? {
        folder.file("made.jpg", bytes: jpeg(plainJPEG(), withExif: fields, littleEndian: littleEndian))
        return PhotoMetadata.dateTaken(uri: folder.uri("made.jpg"))
    }

    private let when = ExifDate.microseconds(dateTime: "2023:08:05 17:16:53")!

    @Test(arguments: [false, true])
    func aJPEGGivesItsDateTimeOriginal(littleEndian: Bool) {
        #expect(date([.orientation(1), .dateTimeOriginal("2023:08:05 17:16:53")], littleEndian: littleEndian) == when)
    }

    @Test func theDateIsReadByPathAndFromBytesAlike() {
        let bytes = jpeg(plainJPEG(), withExif: [.dateTimeOriginal("2023:08:05 17:16:53")])
        folder.file("a.jpg", bytes: bytes)
        #expect(PhotoMetadata.dateTaken(path: folder.path("a.jpg")) == when)
        #expect(PhotoMetadata.dateTaken(fileBytes: bytes) == when)
        #expect(PhotoMetadata.readDate(uri: folder.uri("a.jpg")) == .taken(when))
    }

    @Test func anOddFileNameIsFoundThroughItsURI() {
        folder.file("été 1 #%.jpg", bytes: jpeg(plainJPEG(), withExif: [.dateTimeOriginal("2023:08:05 17:16:53")]))
        #expect(PhotoMetadata.dateTaken(uri: folder.uri("été 1 #%.jpg")) == when)
    }

    @Test func aFileNameThatIsNotUTF8IsFoundThroughItsURI() throws {
        let bytes = jpeg(plainJPEG(), withExif: [.dateTimeOriginal("2023:08:05 17:16:53")])
        let name: [CChar] = (folder.path + "/caf").utf8CString.dropLast() + [CChar(bitPattern: 0xE9), CChar(bitPattern: 0xFF)] + Array(".jpg".utf8CString)
        let uri = name.withUnsafeBufferPointer { path -> String in
            let fd = open(path.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            precondition(fd >= 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return fileURI(path.baseAddress!)
        }
        #expect(uri.contains("%E9%FF"))
        #expect(PhotoMetadata.dateTaken(uri: uri) == when)
    }

    @Test func theOffsetAndFractionOfTheOriginalAreApplied() {
        let got = date([.dateTimeOriginal("2020:10:01 17:08:26"), .offsetTimeOriginal("-07:00"), .subSecTimeOriginal("25")])
        #expect(got == ExifDate.microseconds(dateTime: "2020:10:02 00:08:26")! + 250_000)
    }

    @Test func withoutAnOriginalTheDigitizedDateCounts() {
        #expect(date([.dateTime("2001:01:01 00:00:00"), .dateTimeDigitized("2023:08:05 17:16:53")]) == when)
    }

    @Test func withNeitherTheFileDateTimeCounts() {
        #expect(date([.orientation(3), .dateTime("2023:08:05 17:16:53")]) == when)
    }

    @Test func anOriginalACameraLeftBlankFallsBackToTheNextDate() {
        #expect(date([.dateTimeOriginal("0000:00:00 00:00:00"), .dateTimeDigitized("2023:08:05 17:16:53")]) == when)
        #expect(date([.dateTimeOriginal("    :  :     :  :  "), .dateTime("2023:08:05 17:16:53")]) == when)
    }

    @Test func exifWithoutADateGivesNoDate() {
        folder.file("turned.jpg", bytes: jpeg(plainJPEG(), withOrientation: 6))
        #expect(PhotoMetadata.readDate(uri: folder.uri("turned.jpg")) == .noDate)
        #expect(date([.dateTimeOriginal("not a date at all")]) == nil)
    }

    @Test func filesWithoutExifHaveNoDate() {
        folder.file("bare.jpg", bytes: plainJPEG())
        folder.image("picture.png", width: 8, height: 8)
        folder.file("notes.jpg", text: "Exif\0\0 is not enough to be a JPEG")
        folder.file("empty.jpg", bytes: [])
        folder.file("two.jpg", bytes: [0xFF, 0xD8])
        for name in ["bare.jpg", "picture.png", "notes.jpg", "empty.jpg", "two.jpg"] {
            #expect(PhotoMetadata.readDate(uri: folder.uri(name)) == .noDate, "\(name)")
        }
    }

    @Test func whatCannotBeReadIsNotMistakenForNoDate() {
        folder.folder("folder.jpg")
        folder.symlink("dangling.jpg", to: folder.path("nowhere.jpg"))
        for name in ["folder.jpg", "dangling.jpg", "missing.jpg"] {
            #expect(PhotoMetadata.readDate(uri: folder.uri(name)) == nil, "\(name)")
        }
    }

    @Test func aFIFONamedLikeAPhotoDoesNotBlock() {
        folder.fifo("pipe.jpg")
        let uri = folder.uri("pipe.jpg")
        let result = runOnThread { PhotoMetadata.readDate(uri: uri).map { "\($0)" } ?? "unreadable" }
        #expect(result == "unreadable")
    }

    @Test func exifAfterOtherLargeSegmentsIsStillFound() {
        // Three 60 KiB APP2 segments (ICC profiles are stored so) before the EXIF segment.
        let filler = (0..<3).flatMap { _ in [0xFF, 0xE2, 0xEA, 0x62] + [UInt8](repeating: 0x20, count: 60_000) }
        let base = plainJPEG()
        let bytes = Array(base[0..<2]) + filler + exifSegment([.dateTimeOriginal("2023:08:05 17:16:53")]) + Array(base[2...])
        folder.file("late.jpg", bytes: bytes)
        #expect(PhotoMetadata.dateTaken(uri: folder.uri("late.jpg")) == when)
    }

    @Test func exifBeyondTheFirst256KiBIsNotLookedFor() {
        let filler = (0..<5).flatMap { _ in [0xFF, 0xE2, 0xEA, 0x62] + [UInt8](repeating: 0x20, count: 60_000) }
        let base = plainJPEG()
        let bytes = Array(base[0..<2]) + filler + exifSegment([.dateTimeOriginal("2023:08:05 17:16:53")]) + Array(base[2...])
        folder.file("buried.jpg", bytes: bytes)
        #expect(PhotoMetadata.dateTaken(uri: folder.uri("buried.jpg")) == nil)
    }

    @Test func everyTruncationOfAPhotoIsSafe() {
        let full = jpeg(plainJPEG(), withExif: [.orientation(1), .dateTimeOriginal("2023:08:05 17:16:53"),
                                                 .offsetTimeOriginal("+02:00"), .dateTime("2023:08:05 17:16:53")])
        let segmentEnd = 2 + exifSegment([.orientation(1), .dateTimeOriginal("2023:08:05 17:16:53"),
                                          .offsetTimeOriginal("+02:00"), .dateTime("2023:08:05 17:16:53")]).count
        for length in 0...full.count {
            let got = PhotoMetadata.dateTaken(fileBytes: Array(full[0..<length]))
            if length >= segmentEnd { #expect(got == when - 2 * 3_600_000_000, "length \(length)") }
        }
    }

    @Test func damagedExifNeverCrashes() {
        var rng = SeededGenerator(seed: 2024)
        let segment = exifSegment([.orientation(1), .dateTimeOriginal("2023:08:05 17:16:53"), .dateTimeDigitized("2023:08:05 17:16:53"),
                                   .offsetTimeOriginal("+02:00"), .subSecTimeOriginal("5"), .dateTime("2023:08:05 17:16:53")],
                                  littleEndian: true)
        let rest = plainJPEG()[2...]
        for round in 0..<2_000 {
            var damaged = segment
            // Leave the marker alone, so that libexif parses the damage rather than skipping it.
            for _ in 0..<(1 + round % 6) {
                let i = Int.random(in: 4..<damaged.count, using: &rng)
                damaged[i] = round % 3 == 0 ? 0xFF : UInt8.random(in: 0...255, using: &rng)
            }
            _ = PhotoMetadata.dateTaken(fileBytes: [0xFF, 0xD8] + damaged + rest)
        }
        // Pure noise after a JPEG start, and an EXIF header followed by noise.
        for length in [0, 1, 10, 100, 1000, 70_000] {
            let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = PhotoMetadata.dateTaken(fileBytes: [0xFF, 0xD8, 0xFF] + noise)
            let declared = min(length + 8, 0xFFFF)
            _ = PhotoMetadata.dateTaken(fileBytes: [0xFF, 0xD8, 0xFF, 0xE1, UInt8(declared >> 8), UInt8(declared & 0xFF)]
                                        + Array("Exif".utf8) + [0, 0] + noise)
            _ = PhotoMetadata.dateTaken(fileBytes: noise)
        }
        // Entries that point far outside the data, and counts that claim everything.
        let hostile: [[UInt8]] = [
            [0x4D, 0x4D, 0x00, 0x2A, 0xFF, 0xFF, 0xFF, 0xF0],
            [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0xFF, 0xFF],
            [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x87, 0x69, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01,
             0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00],                                   // EXIF IFD pointing at IFD0: a loop
            [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x03, 0x90, 0x02, 0x00, 0xFF, 0xFF, 0xFF, 0x7F,
             0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],                                   // a 2 GiB string
        ]
        for tiff in hostile {
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            #expect(PhotoMetadata.dateTaken(fileBytes: [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + rest) == nil)
        }
    }

    @Test(.enabled(if: SharedCorpus.isPresent, SharedCorpus.absent))
    func everyCorpusFileIsReadWithoutCrashingOrBlocking() throws {
        let files = ["bad", "cameras"].flatMap { SharedCorpus.files(under: corpusRoot + "/" + $0) }
        #expect(!files.isEmpty)
        let finished = runOnThread { () -> Int in
            var count = 0
            for path in files {
                _ = PhotoMetadata.readDate(uri: fileURI(path))
                count += 1
            }
            return count
        }
        #expect(finished == files.count)
    }

    /// Compares with ImageMagick's reading of the same tags, for a few real camera photos.
    @Test(.enabled(if: SharedCorpus.has("cameras"), SharedCorpus.missing("cameras")),
          .enabled(if: ImageMagick.identify != nil, ImageMagick.absent))
    func cameraPhotosGiveTheDatesImageMagickReads() throws {
        let identify = try #require(ImageMagick.identify)
        let photos = SharedCorpus.files(under: corpusRoot + "/cameras").filter { $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".jpeg") }
        var compared = 0
        for path in photos where compared < 8 {
            let fields = ImageMagick.fields(identify, of: path, ["%[EXIF:DateTimeOriginal]", "%[EXIF:OffsetTimeOriginal]", "%[EXIF:SubSecTimeOriginal]"])
            guard let original = fields[0], let want = ExifDate.microseconds(dateTime: original, offset: fields[1], subseconds: fields[2]) else {
                continue
            }
            #expect(PhotoMetadata.dateTaken(path: path) == want, "\(path): ImageMagick reads \(original) \(fields[1] ?? "") \(fields[2] ?? "")")
            compared += 1
        }
        #expect(compared > 0, "no camera photo with a DateTimeOriginal")
    }
}
