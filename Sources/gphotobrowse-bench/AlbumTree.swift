import Foundation

/// A folder tree of albums for the albums benchmark, two levels deep as a person files photos
/// (`2019/2019-03 Lisbon`): years holding no photos of their own, each holding album folders
/// of varied sizes. Every album has a few JPEGs of its own, made here, dated in its month, and
/// the rest of its photos are hard links to them; so albums are ordered by date (the newest
/// photo of each, as the app orders them) and the whole tree costs a few megabytes.
struct AlbumTree {
    struct Album {
        /// The album's folder below the tree's root: `2019/2019-03 Lisbon`.
        let path: String
        let photos: Int
        /// The modification time of its newest photo, seconds since 1970.
        let newest: Int
    }

    let root: String
    /// Newest first, as the app's switcher lists them.
    let albums: [Album]
    let years: Int
    static let photosMadePerAlbum = 3

    var photoCount: Int { albums.reduce(0) { $0 + $1.photos } }

    /// Plans `albumCount` albums holding `photoCount` photos in all, in up to 20 years ending
    /// in 2026: sizes spread over two orders of magnitude (a few large, many small), the
    /// same for every run.
    init(root: String, albumCount: Int, photoCount: Int) {
        self.root = root
        years = min(20, albumCount)
        let places = ["Trip", "Lisbon", "Birthday", "Garden", "Snow", "Kyoto", "Beach", "Wedding",
                      "Harbour", "Hiking", "Concert", "Market", "Zoo", "Island", "Family", "Museum"]
        // Sizes: log-uniform weights from a fixed xorshift sequence, scaled to the total.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let weights = (0..<albumCount).map { _ -> Double in
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return exp(Double(seed % 10_000) / 10_000 * log(150.0))
        }
        let spare = photoCount - albumCount  // every album holds at least one photo
        var sizes = weights.map { 1 + Int(Double(spare) * $0 / weights.reduce(0, +)) }
        for i in 0..<(photoCount - sizes.reduce(0, +)) { sizes[i % albumCount] += 1 }

        var albums: [Album] = []
        var titles = Set<String>()
        let perYear = (albumCount + years - 1) / years
        for i in 0..<albumCount {
            let year = 2026 - years + 1 + i / perYear, within = i % perYear
            let month = 1 + within * 12 / perYear
            var title = String(format: "%04d-%02d %@", year, month, places[i % places.count])
            while !titles.insert(title).inserted { title += " 2" }
            // Noon on the album's first day, plus a few hours per album so no two tie.
            var date = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                      year: year, month: month, day: 1 + within % 28, hour: 12)
            date.minute = i % 60
            let first = Int(date.date!.timeIntervalSince1970)
            albums.append(Album(path: "\(year)/\(title)", photos: sizes[i], newest: first + 2 * 86_400))
        }
        self.albums = albums.sorted { $0.newest > $1.newest }
    }

    /// Makes the tree on the disk; false (said on stderr) when it cannot.
    func make() -> Bool {
        for (index, album) in albums.enumerated() {
            let folder = root + "/" + album.path
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                printError("cannot make \(folder): \(error)")
                return false
            }
            let made = min(album.photos, Self.photosMadePerAlbum)
            for n in 0..<album.photos {
                let path = folder + String(format: "/IMG_%05d.jpg", n + 1)
                if n < made {
                    // A colour of its own per album and photo, a day apart, the last the newest.
                    let colour = UInt32(truncatingIfNeeded: (index &* 0x0009_3A17 &+ n &* 0x3B_1D00) << 8) | 0xFF
                    guard writeSolidJPEG(path, rgba: colour, width: 320, height: 240),
                          setModified(path, seconds: album.newest - (made - 1 - n) * 86_400) else {
                        printError("cannot write \(path)")
                        return false
                    }
                } else if link(folder + String(format: "/IMG_%05d.jpg", n % made + 1), path) != 0 {
                    printError("cannot link \(path): \(String(cString: strerror(errno)))")
                    return false
                }
            }
        }
        return true
    }

    /// One line on what the tree holds.
    var description: String {
        let sizes = albums.map(\.photos)
        return "\(albums.count) albums of \(sizes.min() ?? 0) to \(sizes.max() ?? 0) photos, \(photoCount) in all, "
            + "in \(years) year folders (\(Self.photosMadePerAlbum) JPEGs of 320×240 made per album, the rest hard links) in \(root)"
    }
}
