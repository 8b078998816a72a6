/// A camera set to record RAW+JPEG writes two files of one photo side by side
/// (`IMG_0042.CR2` and `IMG_0042.JPG`): the browser shows them as one photo, the JPEG,
/// with the RAW file as its companion (`Photo.companions`), as Shotwell, digiKam and
/// Lightroom group them. An iPhone's Live Photo is a still and a short movie of the same
/// name (`IMG_0042.HEIC` and `IMG_0042.MOV`, as Photos exports them): one photo too, the
/// still, with the movie as its companion. Files pair when they are in the same folder and
/// their names before the extension are the same, ignoring case; a Live Photo's two files
/// pair by the identifier they share, whatever their names (`FolderPairs`).
public enum PairedFiles {
    /// Extensions of cameras' RAW files.
    public static let rawExtensions: Set<String> = [
        "3fr", "ari", "arw", "bay", "cap", "cr2", "cr3", "crw", "dcr", "dcs", "dng", "drf", "eip", "erf", "fff",
        "gpr", "iiq", "k25", "kdc", "mdc", "mef", "mos", "mrw", "nef", "nrw", "orf", "pef", "ptx", "raf", "raw",
        "rw2", "rwl", "sr2", "srf", "srw", "x3f",
    ]
    /// Extensions of the still a RAW file or a Live Photo's movie pairs with: a JPEG, or
    /// the HEIF a phone (or a camera set to RAW+HEIF) writes.
    public static let jpegExtensions: Set<String> = ["jpg", "jpeg", "jpe", "heic", "heif", "hif"]
    /// Extensions of a Live Photo's movie.
    public static let liveMovieExtensions: Set<String> = ["mov"]

    /// What a file is to a pair.
    public enum Role: Sendable, Equatable {
        /// The JPEG (or HEIF): the photo shown.
        case jpeg
        /// A RAW file: shown with its JPEG when there is one, else on its own.
        case raw
        /// A Live Photo's movie: shown with its still when there is one, else as a video.
        case liveMovie
    }

    /// The file's role by its name, with the name before the extension in lower case (the
    /// pair's key); nil for a file that never pairs.
    public static func role(ofName name: String) -> (role: Role, stem: String)? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        let stem = name[..<dot].lowercased()
        if jpegExtensions.contains(ext) { return (.jpeg, stem) }
        if rawExtensions.contains(ext) { return (.raw, stem) }
        if liveMovieExtensions.contains(ext) { return (.liveMovie, stem) }
        return nil
    }

    /// Whether a file pairs with a still (a RAW file or a Live Photo's movie), by its name:
    /// `role(ofName:)` is neither nil nor `.jpeg`. Worked out on the name's bytes for an
    /// ASCII extension, without the strings `role(ofName:)` makes, as a folder asks it of
    /// every photo that comes while it holds none.
    static func pairsWithStill(name: String) -> Bool {
        var name = name
        return name.withUTF8(extensionPairsWithStill) ?? (role(ofName: name).map { $0.role != .jpeg } ?? false)
    }

    /// `pairsWithStill(name:)` of the photo's display name, read where the photo holds it (a
    /// plain name is the end of its URI: no string is made).
    static func pairsWithStill(_ photo: Photo) -> Bool {
        photo.withDisplayNameUTF8(extensionPairsWithStill) ?? (role(ofName: photo.displayName).map { $0.role != .jpeg } ?? false)
    }

    /// Whether the name whose UTF-8 bytes are `bytes` pairs with a still, by its extension; nil
    /// when the extension is not ASCII, or the dot is beside a byte that is not: then the dot
    /// may be part of another character, or a letter lower to ASCII (the Kelvin sign to "k"),
    /// and the strings decide.
    private static func extensionPairsWithStill(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return false }
        guard dot > 0, bytes[dot - 1] < 0x80 else { return nil }
        var code: UInt32 = 0
        for byte in bytes[(dot + 1)...] {
            guard byte < 0x80 else { return nil }
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            code = code &<< 8 | UInt32(lower)
        }
        return bytes.count - dot - 1 == 3 && stillPartnerCodes.contains(code)
    }

    /// The extensions of RAW files and Live Photo movies (all of three letters), each as its
    /// three bytes in one number.
    private static let stillPartnerCodes: Set<UInt32> = Set(rawExtensions.union(liveMovieExtensions).map { ext in
        precondition(ext.utf8.count == 3)
        return ext.utf8.reduce(0) { $0 &<< 8 | UInt32($1) }
    })

    /// Whether a file is a camera's RAW file, by its name.
    public static func isRaw(name: String) -> Bool { role(ofName: name)?.role == .raw }

    /// Whether a file is a Live Photo's movie, by its name.
    public static func isLiveMovie(name: String) -> Bool { role(ofName: name)?.role == .liveMovie }
}

extension Photo {
    /// Every file of this photo: its own, then its companions' (the RAW beside a JPEG).
    /// Moving to the trash and exporting take them all.
    public var fileIDs: [String] { [id] + companions.map(\.id) }

    /// Whether a RAW file goes with this photo (its tile shows "RAW").
    public var hasRawCompanion: Bool { companions.contains { PairedFiles.isRaw(name: $0.displayName) } }

    /// The movie of a Live Photo going with this still (its tile shows "Live"), if any.
    public var liveMovie: Photo? { companions.first { PairedFiles.isLiveMovie(name: $0.displayName) } }
}

/// The RAW+JPEG pairs and Live Photos of one folder: which files are shown as photos and
/// which go with another as its companions. Fed with the folder's photos as they arrive and
/// leave, it answers what the folder shows instead: the JPEG of a pair with its RAW files as
/// companions, a RAW file alone when no JPEG of its name is there, and every other photo
/// as it is.
///
/// A Live Photo's movie goes with the still that has its identifier (`LivePhotoIdentifier`,
/// read in a decoder process and given with `identify`), whatever the two are named; a
/// movie whose identifier no still has, or that has none, goes with the still of its name
/// unless that still has another identifier than the movie's, or a movie of its own
/// identifier. Until identifiers are read, names decide.
struct FolderPairs: Sendable {
    /// The files of one name.
    private struct Group: Sendable {
        var jpeg: Photo?
        /// The RAW files of this name.
        var raws: [String: Photo] = [:]
        /// The Live Photo movies of this name.
        var movies: [String: Photo] = [:]
    }

    /// What a change means for the photos shown: photos to show (new, or changed: a
    /// companion came or went) and ids no longer shown.
    struct Effect: Sendable {
        var shown: [Photo] = []
        var hidden: Set<String> = []
    }

    private var groups: [String: Group] = [:]
    /// The name (the group's key) of each file in a group.
    private var stemOfID: [String: String] = [:]
    /// Whether a RAW file or a movie has come to this folder. Until one does there is
    /// nothing to pair: photos pass through untouched and no name is kept (a folder of
    /// 100,000 JPEGs costs nothing here); the first starts the groups from the JPEGs shown
    /// by then.
    private var hasRaws = false
    /// How many movies the groups hold: identifiers matter only while there is one.
    private var movieCount = 0
    /// The Live Photo identifiers read, of the stills and movies in groups that have one.
    private var identifiers: [String: String] = [:]
    /// The files whose identifier was read (found or not).
    private var identified: Set<String> = []
    /// The groups' stills and movies by identifier.
    private var stillsWith: [String: Set<String>] = [:]
    private var moviesWith: [String: Set<String>] = [:]

    /// Photos found (or found changed). `shown` is what the folder shows so far: the JPEGs
    /// the groups start from when the first RAW file comes.
    mutating func arrive(_ photos: [Photo], shown: [Photo] = []) -> Effect {
        if !hasRaws {
            guard photos.contains(where: PairedFiles.pairsWithStill) else {
                guard photos.contains(where: { !$0.companions.isEmpty }) else { return Effect(shown: photos) }
                return Effect(shown: photos.map { photo in
                    guard !photo.companions.isEmpty else { return photo }
                    var alone = photo
                    alone.companions = []
                    return alone
                })
            }
            hasRaws = true
            // The JPEGs shown so far, each the JPEG of its name (the first by id when two
            // share one, as x.jpg and x.JPEG).
            for photo in shown.sorted(by: { $0.id < $1.id }) {
                guard let (role, stem) = PairedFiles.role(ofName: photo.displayName), role == .jpeg,
                      groups[stem] == nil else { continue }
                groups[stem] = Group(jpeg: photo)
                stemOfID[photo.id] = stem
            }
        }
        var effect = Effect()
        var before: [String: [Photo]] = [:]
        for var photo in photos {
            photo.companions = []
            guard let (role, stem) = PairedFiles.role(ofName: photo.displayName) else {
                effect.shown.append(photo)
                continue
            }
            var group = groups[stem] ?? Group()
            // A second JPEG of the same name (x.jpg and x.jpeg) is a photo of its own.
            if role == .jpeg, let jpeg = group.jpeg, jpeg.id != photo.id {
                effect.shown.append(photo)
                continue
            }
            touch(stem, &before)
            if let identifier = identifiers[photo.id] { touchHolders(of: identifier, &before) }
            switch role {
            case .jpeg: group.jpeg = photo
            case .raw: group.raws[photo.id] = photo
            case .liveMovie:
                if group.movies.updateValue(photo, forKey: photo.id) == nil { movieCount += 1 }
            }
            stemOfID[photo.id] = stem
            groups[stem] = group
            // Changed on disk, or new: its identifier is read (again); the one known holds meanwhile.
            identified.remove(photo.id)
        }
        finish(before, into: &effect)
        return effect
    }

    /// Files gone; ids of files this folder does not hold are passed on as gone.
    mutating func leave(_ ids: Set<String>) -> Effect {
        var effect = Effect()
        var before: [String: [Photo]] = [:]
        for id in ids {
            guard let stem = stemOfID[id], groups[stem] != nil else {
                effect.hidden.insert(id)
                continue
            }
            touch(stem, &before)
            if let identifier = identifiers[id] { touchHolders(of: identifier, &before) }
            setIdentifier(nil, of: id)
            identified.remove(id)
            stemOfID[id] = nil
            var group = groups[stem]!
            if group.jpeg?.id == id {
                group.jpeg = nil
            } else if group.movies.removeValue(forKey: id) != nil {
                movieCount -= 1
            } else {
                group.raws[id] = nil
            }
            groups[stem] = group.jpeg == nil && group.raws.isEmpty && group.movies.isEmpty ? nil : group
        }
        finish(before, into: &effect)
        return effect
    }

    /// Live Photo identifiers read (nil: the file has none), of stills and movies this
    /// folder holds (others are ignored).
    mutating func identify(_ read: [String: String?]) -> Effect {
        var effect = Effect()
        var before: [String: [Photo]] = [:]
        for (id, identifier) in read {
            guard let stem = stemOfID[id] else { continue }
            identified.insert(id)
            guard identifiers[id] != identifier else { continue }
            touch(stem, &before)
            if let old = identifiers[id] { touchHolders(of: old, &before) }
            if let identifier { touchHolders(of: identifier, &before) }
            setIdentifier(identifier, of: id)
        }
        finish(before, into: &effect)
        return effect
    }

    /// The stills and movies whose identifiers are still to be read: none while the folder
    /// holds no movie.
    var unidentified: [String] {
        guard movieCount > 0 else { return [] }
        var ids: [String] = []
        for group in groups.values {
            if let jpeg = group.jpeg, !identified.contains(jpeg.id) { ids.append(jpeg.id) }
            for id in group.movies.keys where !identified.contains(id) { ids.append(id) }
        }
        return ids
    }

    // MARK: Pairing

    /// The photos shown for a name.
    private func shown(_ stem: String) -> [Photo] {
        guard let group = groups[stem] else { return [] }
        var result: [Photo] = []
        let raws = group.raws.values.sorted { $0.id < $1.id }
        if var jpeg = group.jpeg {
            jpeg.companions = raws + movies(of: jpeg.id, group: group)
            result.append(jpeg)
        } else {
            result = raws
        }
        result += group.movies.values.filter { partner(of: $0.id) == nil }.sorted { $0.id < $1.id }
        return result
    }

    /// The still a movie goes with, if any (see the type's description).
    private func partner(of movie: String) -> String? {
        let identifier = identifiers[movie]
        if let identifier, let stills = stillsWith[identifier], let still = stills.min() { return still }
        guard let stem = stemOfID[movie], let still = groups[stem]?.jpeg?.id else { return nil }
        if let own = identifiers[still] {
            if let identifier, identifier != own { return nil }
            if moviesWith[own]?.isEmpty == false { return nil }
        }
        return still
    }

    /// The movies going with the still `still` of `group`: of its name, or of its identifier.
    private func movies(of still: String, group: Group) -> [Photo] {
        var candidates = Array(group.movies.values)
        if let identifier = identifiers[still] {
            for id in moviesWith[identifier] ?? [] where group.movies[id] == nil {
                if let stem = stemOfID[id], let movie = groups[stem]?.movies[id] { candidates.append(movie) }
            }
        }
        return candidates.filter { partner(of: $0.id) == still }.sorted { $0.id < $1.id }
    }

    private mutating func setIdentifier(_ identifier: String?, of id: String) {
        if let old = identifiers.removeValue(forKey: id) {
            stillsWith[old]?.remove(id)
            moviesWith[old]?.remove(id)
            if stillsWith[old]?.isEmpty == true { stillsWith[old] = nil }
            if moviesWith[old]?.isEmpty == true { moviesWith[old] = nil }
        }
        guard let identifier, let stem = stemOfID[id], let group = groups[stem] else { return }
        if group.jpeg?.id == id {
            stillsWith[identifier, default: []].insert(id)
        } else if group.movies[id] != nil {
            moviesWith[identifier, default: []].insert(id)
        } else {
            return
        }
        identifiers[id] = identifier
    }

    /// Remembers what a name showed before a change.
    private func touch(_ stem: String, _ before: inout [String: [Photo]]) {
        if before[stem] == nil { before[stem] = shown(stem) }
    }

    /// Remembers what the names of the files with `identifier` showed before a change.
    private func touchHolders(of identifier: String, _ before: inout [String: [Photo]]) {
        for id in (stillsWith[identifier] ?? []).union(moviesWith[identifier] ?? []) {
            if let stem = stemOfID[id] { touch(stem, &before) }
        }
    }

    /// Adds to the effect what each name touched shows now against what it showed before.
    private func finish(_ before: [String: [Photo]], into effect: inout Effect) {
        for (stem, old) in before {
            let now = shown(stem)
            let nowIDs = Set(now.map(\.id))
            for photo in old where !nowIDs.contains(photo.id) { effect.hidden.insert(photo.id) }
            effect.shown.append(contentsOf: now)
        }
    }
}
