import CGdkPixbuf
import Dispatch
import Foundation

/// The folder the web benchmark serves: `count` photos of 1.2 to 3.1 megapixels, each a
/// JPEG of its own colour with a gradient and grain (so that it compresses as a photo does,
/// not as a flat colour), a thumbnail of each (320 × 240, painted alike) under `t/`, and `album.json`
/// listing them with their thumbnails, titles and dates taken. The first photo is the newest,
/// so the grid's default order (newest first) is the list's: grid index i is photo i.
struct WebAlbumSite: Sendable {
    let root: String
    let count: Int

    static let listName = "album.json"
    /// The photos' sizes, in turn: 1.2, 1.9 and 3.1 megapixels.
    static let sizes = [(1280, 960), (1600, 1200), (2048, 1536)]
    static let thumbnailSize = (320, 240)

    func photoPath(_ index: Int) -> String { String(format: "photo-%04d.jpg", index) }
    func thumbnailPath(_ index: Int) -> String { "t/" + photoPath(index) }

    /// Whether `root` already holds this site (its list, and the last photo's thumbnail).
    var isMade: Bool {
        guard let list = FileManager.default.contents(atPath: root + "/" + Self.listName),
              let json = try? JSONSerialization.jsonObject(with: list) as? [String: Any],
              let photos = json["photos"] as? [Any] else { return false }
        return photos.count == count && FileManager.default.fileExists(atPath: root + "/" + thumbnailPath(count - 1))
    }

    /// Writes the photos (a worker per core), their thumbnails and the list; false, said on
    /// stderr, when a file cannot be written.
    func make() -> Bool {
        do { try FileManager.default.createDirectory(atPath: root + "/t", withIntermediateDirectories: true) } catch {
            printError("cannot make \(root)/t: \(error)")
            return false
        }
        let failed = forEachIndex(below: count, writePhoto)
        guard failed == 0 else {
            printError("could not write \(failed) of the photos in \(root)")
            return false
        }
        return writeList()
    }

    /// Bytes of the photos, of their thumbnails, and of the list.
    func bytes() -> (photos: Int, thumbnails: Int, list: Int) {
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: root + "/" + path))?[.size] as? Int) ?? 0
        }
        let photos = (0..<count).reduce(0) { $0 + size(photoPath($1)) }
        let thumbnails = (0..<count).reduce(0) { $0 + size(thumbnailPath($1)) }
        return (photos, thumbnails, size(Self.listName))
    }

    /// Photo `index` and its thumbnail, painted alike at their two sizes.
    private func writePhoto(_ index: Int) -> Bool {
        let (width, height) = Self.sizes[index % Self.sizes.count]
        return Self.writeJPEG(root + "/" + photoPath(index), index: index, width: width, height: height)
            && Self.writeJPEG(root + "/" + thumbnailPath(index), index: index, width: Self.thumbnailSize.0, height: Self.thumbnailSize.1)
    }

    /// A JPEG of photo `index`'s colour with a gradient across it and grain over it.
    private static func writeJPEG(_ path: String, index: Int, width: Int, height: Int) -> Bool {
        guard let pixbuf = grainyPixbuf(index: index, width: width, height: height) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        return gdk_pixbuf_savev(pixbuf, path, "jpeg", nil, nil, nil) != 0
    }

    /// album.json: photo i taken i minutes before the first, in Kyoto's time zone.
    private func writeList() -> Bool {
        let format = ISO8601DateFormatter()
        format.timeZone = TimeZone(secondsFromGMT: 9 * 3600)
        let newest = Date(timeIntervalSince1970: 1_714_525_200)  // 2024-05-01T10:00:00+09:00
        let photos: [[String: String]] = (0..<count).map { index in
            ["url": photoPath(index), "thumbnail": thumbnailPath(index), "title": "Photo \(index + 1)",
             "taken": format.string(from: newest.addingTimeInterval(Double(-60 * index)))]
        }
        let list: [String: Any] = ["title": "Benchmark album", "photos": photos]
        guard let data = try? JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]),
              FileManager.default.createFile(atPath: root + "/" + Self.listName, contents: data) else {
            printError("cannot write \(root)/\(Self.listName)")
            return false
        }
        return true
    }
}
