import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// The date taken and the camera of photos that are not JPEGs, read in a real confined
/// decoder process: an iPhone's HEIC (its EXIF item), a Canon CR2 (a TIFF file inside) and
/// a Fujifilm RAF (LibRaw), from tests/data/formats; and a TIFF photo made here.
@Suite(.serialized) struct ContainerExifTests {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../tests/data/formats").standardized
    private let folder = TempFolder()

    private static func decoder() -> IsolatedDecoder {
        var settings = IsolatedDecoder.Settings()
        settings.maxProcesses = 1
        return IsolatedDecoder(settings: settings)
    }

    private static func uri(_ name: String) -> String { data.appendingPathComponent(name).absoluteString }

    private static func clock(_ text: String) -> Int64? { ExifDate.microseconds(dateTime: text, offset: nil, subseconds: nil) }

    @Test func heicCr2AndRafFilesSayWhenAndWithWhatTheyWereTaken() {
        let read = Self.decoder().datesAndCameras(uris: ["iphone-13-pro-max.heic", "canon-unreadable.cr2", "fujifilm-s5pro-rotated.raf"].map(Self.uri),
                                                  cancellation: CancellationFlag())
        #expect(read.count == 3)
        #expect(read[0].camera == "Apple iPhone 13 Pro Max")
        // The iPhone wrote its offset from UTC too.
        #expect(read[0].date?.dateTaken == ExifDate.microseconds(dateTime: "2022:02:16 12:55:41", offset: "+01:00", subseconds: "762"))
        #expect(read[1].camera == "Canon EOS 350D DIGITAL")
        #expect(read[1].date?.dateTaken == Self.clock("2005:08:03 18:59:18"))
        #expect(read[2].camera?.lowercased() == "fujifilm s5pro")
        #expect(read[2].date?.dateTaken == Self.clock("2007:05:22 13:58:30"))
    }

    @Test func theHeicsPropertiesNameItsCameraAndLens() {
        let details = Self.decoder().properties(uri: Self.uri("iphone-13-pro-max.heic"), cancellation: CancellationFlag())
        #expect(details.camera == "Apple iPhone 13 Pro Max")
        #expect(details.lens?.contains("iPhone 13 Pro Max") == true)
        #expect(details.dateTaken != nil)
    }

    static let canMakeTiff = FileManager.default.isExecutableFile(atPath: "/usr/bin/convert")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")

    @Test(.enabled(if: canMakeTiff, "convert (imagemagick) or exiftool is missing"))
    func aTiffPhotosOwnDirectoriesGiveItsDate() throws {
        let path = folder.path("scan.tif")
        for arguments in [["/usr/bin/convert", "-size", "16x16", "xc:teal", path],
                          ["/usr/bin/exiftool", "-q", "-overwrite_original", "-Make=Scanmaker", "-Model=S1", "-DateTimeOriginal=2019:03:04 05:06:07", path]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let read = Self.decoder().datesAndCameras(uris: [folder.uri("scan.tif")], cancellation: CancellationFlag())
        #expect(read.first?.camera == "Scanmaker S1")
        #expect(read.first?.date?.dateTaken == Self.clock("2019:03:04 05:06:07"))
    }
}
