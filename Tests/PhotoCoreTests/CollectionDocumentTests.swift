import Foundation
@testable import PhotoCore
import Testing

private let sample = PhotoCollection(
    id: "0123abcd", title: "Kyoto “2024” \\ 京都 🌸", photos: ["file:///home/me/a.jpg", "file:///home/me/My%20Photos/b.jpg"],
    created: 1_777_627_800_000_000, modified: 1_777_745_091_250_000
)

private func parse(_ text: String, id: String = "doc") -> Result<PhotoCollection, CollectionProblem> {
    CollectionDocument.parse(Array(text.utf8), id: id)
}

/// A valid document with `fields` put in place of (or beside) the usual ones.
private func document(_ fields: [String: String]) -> String {
    var all = ["version": "1", "title": "\"Kyoto\"", "created": "\"2026-05-01T09:30:00Z\"",
               "modified": "\"2026-05-01T09:30:00Z\"", "photos": "[\"file:///a.jpg\"]"]
    all.merge(fields) { $1 }
    return "{" + all.filter { !$0.value.isEmpty }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
}

private func problem(_ result: Result<PhotoCollection, CollectionProblem>) -> CollectionProblem? {
    if case .failure(let problem) = result { return problem }
    return nil
}

@Suite struct CollectionDocumentTests {
    @Test func aCollectionSurvivesItsDocument() throws {
        let bytes = CollectionDocument.encode(sample)
        #expect(try CollectionDocument.parse(bytes, id: sample.id).get() == sample)
        let empty = PhotoCollection(id: "e", title: "Empty", photos: [], created: 0, modified: 0)
        #expect(try CollectionDocument.parse(CollectionDocument.encode(empty), id: "e").get() == empty)
    }

    @Test func theDocumentIsReadableByAPerson() {
        let text = String(decoding: CollectionDocument.encode(sample), as: UTF8.self)
        #expect(text == """
            {
              "version": 1,
              "title": "Kyoto “2024” \\\\ 京都 🌸",
              "created": "2026-05-01T09:30:00.000000Z",
              "modified": "2026-05-02T18:04:51.250000Z",
              "photos": [
                "file:///home/me/a.jpg",
                "file:///home/me/My%20Photos/b.jpg"
              ]
            }

            """)
    }

    @Test func controlCharactersAreEscaped() throws {
        #expect(CollectionDocument.quoted("a\"b\\c\nd\u{1}e\u{2028}") == "\"a\\\"b\\\\c\\nd\\u0001e\\u2028\"")
        let odd = PhotoCollection(id: "x", title: "tab\there\u{7F}", photos: [], created: 0, modified: 0)
        #expect(String(decoding: CollectionDocument.encode(odd), as: UTF8.self).contains("\"tab\\there\\u007f\""))
        // Read back, a title's control characters are spaces (see `CollectionTitle`).
        #expect(try CollectionDocument.parse(CollectionDocument.encode(odd), id: "x").get().title == "tab here")
    }

    @Test func unknownFieldsAreIgnoredAndRepeatedPhotosListedOnce() throws {
        let parsed = try parse(document(["comment": "{\"by\": [\"hand\"]}", "photos": "[\"file:///a.jpg\", \"file:///b.jpg\", \"file:///a.jpg\"]"])).get()
        #expect(parsed.photos == ["file:///a.jpg", "file:///b.jpg"])
        #expect(parsed.id == "doc" && parsed.title == "Kyoto")
        #expect(!String(decoding: CollectionDocument.encode(parsed), as: UTF8.self).contains("comment"))
    }

    @Test func documentsOfOtherVersionsOrWithoutOneAreRefused() {
        #expect(problem(parse(document(["version": "2", "title": ""]))) == .documentVersion(2))
        #expect(problem(parse(document(["version": ""]))) == .documentWithoutVersion)
        #expect(problem(parse(document(["version": "\"1\""]))) == .documentField("version"))
        #expect(problem(parse(document(["version": "true"]))) == .documentField("version"))
        #expect(problem(parse(document(["version": "null"]))) == .documentField("version"))
    }

    @Test func missingOrMistypedFieldsAreNamed() {
        for field in ["title", "created", "modified", "photos"] {
            #expect(problem(parse(document([field: ""]))) == .documentField(field))
            #expect(problem(parse(document([field: "17"]))) == .documentField(field))
        }
        #expect(problem(parse(document(["photos": "[\"file:///a.jpg\", 3]"]))) == .documentField("photos"))
        #expect(problem(parse(document(["photos": "{\"0\": \"file:///a.jpg\"}"]))) == .documentField("photos"))
    }

    @Test func badValuesAreRefusedWithTheirReason() {
        #expect(problem(parse(document(["title": "\"  \""]))) == .documentTitle)
        #expect(problem(parse(document(["title": "\"\(String(repeating: "x", count: 201))\""]))) == .documentTitle)
        #expect(problem(parse(document(["created": "\"yesterday\""]))) == .documentTime("created"))
        #expect(problem(parse(document(["modified": "\"2026-02-30T00:00:00Z\""]))) == .documentTime("modified"))
        #expect(problem(parse(document(["photos": "[\"file:///a.jpg\", \"/home/me/b.jpg\"]"]))) == .documentPhoto(2, "/home/me/b.jpg"))
        #expect(problem(parse(document(["photos": "[\"http://example.com/x.jpg\"]"]))) == .documentPhoto(1, "http://example.com/x.jpg"))
    }

    @Test func whatIsNotAJSONObjectIsRefused() {
        for text in ["", " ", "{", "[1]", "\"text\"", "null", "{\"version\": 1 \"title\": \"x\"}", "{} {}", "{\"version\": 1e999}"] {
            let reason = problem(parse(text))
            #expect(reason == .documentNotJSON || reason == .documentNotAnAlbum, "\(text): \(String(describing: reason))")
        }
        #expect(problem(CollectionDocument.parse([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], id: "x")) == .documentNotJSON)
        #expect(problem(CollectionDocument.parse([UInt8](repeating: 0, count: 100), id: "x")) == .documentNotJSON)
    }

    @Test func deepNestingIsRefusedWithoutCrashing() {
        let depth = 200_000
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(problem(parse(document(["extra": nested]))) == .documentNotJSON)
        #expect(problem(parse(nested)) == .documentNotJSON)
    }

    @Test func documentsOverSixteenMiBAreRefusedBeforeParsing() throws {
        let valid = Array(document([:]).utf8)
        let padded = valid + [UInt8](repeating: 0x20, count: CollectionDocument.maximumSize - valid.count)
        #expect(try CollectionDocument.parse(padded, id: "x").get().title == "Kyoto")
        #expect(problem(CollectionDocument.parse(padded + [0x20], id: "x")) == .documentTooLarge)
    }

    @Test func documentsOfMoreThanAMillionPhotosAreRefused() throws {
        // Names of four digits in base 36: short enough for a million to fit in 16 MiB.
        func name(_ n: Int) -> String { String(repeating: "0", count: 4 - String(n, radix: 36).count) + String(n, radix: 36) }
        func photos(_ count: Int) -> String { "[" + (0..<count).map { "\"file:///\(name($0))\"" }.joined(separator: ",") + "]" }
        let most = try parse(document(["photos": photos(PhotoCollection.maximumPhotos)])).get()
        #expect(most.photos.count == PhotoCollection.maximumPhotos)
        #expect(problem(parse(document(["photos": photos(PhotoCollection.maximumPhotos + 1)]))) == .documentTooManyPhotos)
    }

    @Test func damagedDocumentsNeverCrashTheParser() {
        var generator = SeededGenerator(seed: 2026)
        let original = CollectionDocument.encode(sample)
        var refused = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
            }
            switch CollectionDocument.parse(bytes, id: "x") {
            case .success(let parsed):
                #expect(PhotoCollection.isValidID(parsed.id) && parsed.photos.allSatisfy(PhotoCollection.isFileURI))
                #expect(!parsed.title.isEmpty && parsed.title.count <= CollectionTitle.maximumLength)
            case .failure(let problem):
                #expect(problem.kind == .unreadable && !problem.message.isEmpty)
                refused += 1
            }
        }
        #expect(refused > 1000)
    }

    @Test func timesAreWrittenInUTCWithMicroseconds() {
        #expect(CollectionDocument.timestamp(0) == "1970-01-01T00:00:00.000000Z")
        #expect(CollectionDocument.timestamp(1_709_164_800_000_001) == "2024-02-29T00:00:00.000001Z")
        #expect(CollectionDocument.timestamp(-1) == "1969-12-31T23:59:59.999999Z")
        #expect(CollectionDocument.timestamp(253_402_300_799_999_999) == "9999-12-31T23:59:59.999999Z")
        #expect(CollectionDocument.timestamp(-62_135_596_800_000_000) == "0001-01-01T00:00:00.000000Z")
        // A clock gone wrong still makes a document that reads back.
        #expect(CollectionDocument.timestamp(.max) == "9999-12-31T23:59:59.999999Z")
        #expect(CollectionDocument.timestamp(.min) == "0001-01-01T00:00:00.000000Z")
    }

    @Test func timesAreReadAsRFC3339() {
        #expect(CollectionDocument.time("1970-01-01T00:00:00Z") == 0)
        #expect(CollectionDocument.time("2026-05-01T18:30:00+09:00") == CollectionDocument.time("2026-05-01T09:30:00Z"))
        #expect(CollectionDocument.time("2026-05-01T09:30:00.5Z") == CollectionDocument.time("2026-05-01T09:30:00Z")! + 500_000)
        #expect(CollectionDocument.time("2026-05-01T09:30:00.123456789z") == CollectionDocument.time("2026-05-01T09:30:00Z")! + 123_456)
        #expect(CollectionDocument.time("2024-02-29T00:00:00Z") == 1_709_164_800_000_000)
        #expect(CollectionDocument.time("2000-02-29T00:00:00-00:30") == 951_784_200_000_000)
        for bad in ["", "2026-05-01", "2026-05-01T09:30:00", "2026-05-01 09:30:00Z", "2026-13-01T09:30:00Z",
                    "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-05-01T24:00:00Z", "2026-05-01T09:60:00Z",
                    "2026-05-01T09:30:60Z", "0000-01-01T00:00:00Z", "2026-05-01T09:30:00.Z", "2026-05-01T09:30:00ZZ",
                    "2026-05-01T09:30:00+0900", "2026-05-01T09:30:00+24:00", "+2026-05-01T09:30:00Z", "２０２６-05-01T09:30:00Z",
                    "2026-05-01T09:30:00.1234567890Z"] {
            #expect(CollectionDocument.time(bad) == nil, "\(bad)")
        }
    }

    @Test func everyWrittenTimeIsReadBack() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<5000 {
            let time = Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &generator)
            #expect(CollectionDocument.time(CollectionDocument.timestamp(time)) == time)
        }
    }
}
