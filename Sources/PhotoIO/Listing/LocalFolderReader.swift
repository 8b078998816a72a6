import CGdkPixbuf
import Glibc
import PhotoCore

/// Reads a local folder's entries with `readdir` and `fstatat`: what GIO's enumeration
/// reports for them (the same `Photo` values, subfolders, files left out), at a fraction of
/// its cost. GIO makes a `GFileInfo`, a `GFile` and a URI for every entry, about 20 µs
/// each; a tree of 50,000 photos is read here in a few hundred milliseconds. Types come from
/// names as GIO's fast content type does (`g_content_type_guess` on the name), display names
/// as GIO makes them; a location that is not a local folder is read with GIO.
enum LocalFolderReader {
    /// Reads the folder at `path` (NUL-terminated bytes), or returns nil when it cannot be
    /// opened this way (GIO then reads it, and says why it cannot be read). Blocking I/O.
    static func read(
        path: [CChar],
        cancellable: UnsafeMutablePointer<GCancellable>?,
        photo: (Photo) -> Void,
        subfolder: (FolderListing.SubfolderEntry) -> Void,
        skip: (SkippedEntry) -> Void
    ) -> FolderListing.ReadEnd? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let dir = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(dir) }
        // The folder's path followed by "/", to which each entry's name is appended.
        var prefix = Array(path.dropLast())
        if prefix.last != CChar(UInt8(ascii: "/")) { prefix.append(CChar(UInt8(ascii: "/"))) }
        var names = EntryNames(folderURI: uri(of: prefix + [0]))

        var read = 0
        while true {
            if read % 256 == 0, g_cancellable_is_cancelled(cancellable) != 0 { return .cancelled }
            read += 1
            errno = 0
            guard let entry = readdir(dir) else {
                guard errno == 0 else { return .brokenOff(String(cString: strerror(errno))) }
                return .finished
            }
            let name = Self.name(of: entry)
            guard !isDotOrDotDot(name) else { continue }
            describe(name: name, type: entry.pointee.d_type, in: fd, prefix: prefix, names: &names, cancellable: cancellable,
                     photo: photo, subfolder: subfolder, skip: skip)
        }
    }

    /// Where a `dirent` holds its name.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The name of an entry `readdir` returned, read where it left it, not copied out of the
    /// entry (256 bytes a file).
    static func name(of entry: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self)
    }

    private static func isDotOrDotDot(_ name: UnsafePointer<CChar>) -> Bool {
        name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
    }

    private static func describe(
        name: UnsafePointer<CChar>, type: UInt8, in folder: Int32, prefix: [CChar], names: inout EntryNames,
        cancellable: UnsafeMutablePointer<GCancellable>?,
        photo: (Photo) -> Void,
        subfolder: (FolderListing.SubfolderEntry) -> Void,
        skip: (SkippedEntry) -> Void
    ) {
        var status = stat()
        var isSymlink = false
        switch Int(type) {
        case Int(DT_REG), Int(DT_DIR):
            guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return }  // gone meanwhile
        case Int(DT_LNK), Int(DT_UNKNOWN):
            guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return }
            if status.st_mode & S_IFMT == S_IFLNK {
                isSymlink = true
                guard fstatat(folder, name, &status, 0) == 0 else {
                    return skip(SkippedEntry(name: displayName(name), reason: FolderListing.brokenLinkReason))
                }
            }
        default:
            return skip(SkippedEntry(name: displayName(name), reason: FolderListing.specialFileReason))
        }

        func path() -> [CChar] { prefix + Array(UnsafeBufferPointer(start: name, count: strlen(name) + 1)) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            let folderPath = path()
            subfolder(FolderListing.SubfolderEntry(
                uri: uri(of: folderPath),
                name: String(cString: name),
                displayName: displayName(name),
                isSymlink: isSymlink,
                isMountable: false,
                identity: FileIdentity(device: UInt32(truncatingIfNeeded: status.st_dev), inode: UInt64(status.st_ino))
            ))
        case S_IFREG:
            let entry = EntryName(name)
            let (fastContentType, kind) = names.contentType(of: entry)
            let size = Int64(status.st_size)
            guard let contentType = FolderListing.imageType(
                name: name, fastContentType: fastContentType, kind: kind, size: size,
                sniff: {
                    let file = g_file_new_for_path(path())
                    defer { unref(file) }
                    return FolderListing.sniffContentType(file, cancellable: cancellable)
                }
            ) else { return }
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000 + Int64(status.st_mtim.tv_nsec) / 1000
            if let id = names.uri(of: entry) {
                // A plain name: its URI ends with it, and it is its own display name.
                if names.isOwnDisplayName(entry) {
                    return photo(Photo(id: id, displayNameLength: entry.bytes.count, modified: modified, size: size, contentType: contentType))
                }
                return photo(Photo(id: id, displayName: names.displayName(of: entry), modified: modified, size: size, contentType: contentType))
            }
            let id = uri(of: path())
            guard !id.isEmpty else { return }
            photo(Photo(id: id, displayName: names.displayName(of: entry), modified: modified, size: size, contentType: contentType))
        default:
            skip(SkippedEntry(name: displayName(name), reason: FolderListing.specialFileReason))
        }
    }

    /// A file's name, its bytes looked over once.
    struct EntryName {
        let pointer: UnsafePointer<CChar>
        let bytes: UnsafeBufferPointer<UInt8>
        /// Only ASCII bytes: valid UTF-8 with no replacement character.
        let isASCII: Bool
        /// Only letters, digits, dots, dashes and underscores, which `g_filename_to_uri` never escapes.
        let isPlain: Bool

        init(_ name: UnsafePointer<CChar>) {
            pointer = name
            bytes = UnsafeBufferPointer(start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name))
            var isPlain = true, high: UInt8 = 0
            for byte in bytes {
                high |= byte
                if isPlain && !(isLetterOrDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")) {
                    isPlain = false
                }
            }
            isASCII = high < 0x80
            self.isPlain = isPlain
        }
    }

    /// What GIO would make of the names in one folder, without a call into GLib for most of
    /// them: a folder of 100,000 photos has a handful of extensions and plain names.
    struct EntryNames {
        /// The folder's URI, ending in "/".
        let folderURI: String
        /// The folder's URI's bytes, to which a plain name is appended.
        private let folderURIBytes: [UInt8]
        /// Content types guessed from names (`g_content_type_guess`), and what the browser
        /// makes of them (`ImageTypes.classify`), by the name's extension: its bytes, the dot
        /// included, in an integer (at most 8 of them, none zero).
        private var typeOfExtension: [UInt64: (type: String?, kind: ImageKind)] = [:]
        /// The extension met last and its type: a folder's files mostly share one.
        private var lastExtension: UInt64 = 0
        private var lastType: (type: String?, kind: ImageKind) = (nil, .unknown)
        /// Whether file names are UTF-8 (`G_FILENAME_ENCODING`), so a valid UTF-8 name is its
        /// own display name.
        private let namesAreUTF8 = g_get_filename_charsets(nil) != 0

        init(folderURI: String) {
            self.folderURI = folderURI.hasSuffix("/") ? folderURI : folderURI + "/"
            folderURIBytes = Array(self.folderURI.utf8)
        }

        /// The type GIO guesses from the name, and its kind. The guess is made from the
        /// name's glob patterns, which for a name with an extension of letters and digits are
        /// the extension's ("*.jpg"), so it is made once per extension.
        mutating func contentType(of name: EntryName) -> (type: String?, kind: ImageKind) {
            let bytes = name.bytes
            if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot < bytes.count - 1, bytes.count - dot <= 8,
               bytes[(dot + 1)...].allSatisfy({ isLetterOrDigit($0) }) {
                var key: UInt64 = 0
                for byte in bytes[dot...] { key = key << 8 | UInt64(byte) }
                if key == lastExtension { return lastType }
                let known: (type: String?, kind: ImageKind)
                if let found = typeOfExtension[key] {
                    known = found
                } else {
                    let type = guess(name.pointer)
                    known = (type, ImageTypes.classify(type))
                    typeOfExtension[key] = known
                }
                (lastExtension, lastType) = (key, known)
                return known
            }
            let type = guess(name.pointer)
            return (type, ImageTypes.classify(type))
        }

        private func guess(_ name: UnsafePointer<CChar>) -> String? {
            g_content_type_guess(name, nil, 0, nil).map { p -> String in defer { g_free(p) }; return String(cString: p) }
        }

        /// Whether the name is shown as it is: ASCII, where names are UTF-8.
        func isOwnDisplayName(_ name: EntryName) -> Bool { namesAreUTF8 && name.isASCII }

        /// The name as GIO's `standard::display-name` shows it.
        func displayName(of name: EntryName) -> String {
            if namesAreUTF8 {
                // An ASCII name is valid UTF-8 and holds no replacement character.
                if isOwnDisplayName(name) { return String(decoding: name.bytes, as: UTF8.self) }
                if let text = String(validatingCString: name.pointer), !text.unicodeScalars.contains("\u{FFFD}") {
                    return text
                }
            }
            return LocalFolderReader.displayName(name.pointer)
        }

        /// The file's URI as `g_filename_to_uri` writes it, for a name of letters, digits,
        /// dots, dashes and underscores (which it never escapes); nil for any other name.
        func uri(of name: EntryName) -> String? {
            guard name.isPlain else { return nil }
            // Written in place at its exact length: `+` would leave the string room to grow
            // (up to half again), and a folder's URIs are kept for as long as it is shown.
            let bytes = name.bytes
            return folderURIBytes.withUnsafeBufferPointer { folderBytes in
                String(unsafeUninitializedCapacity: folderBytes.count + bytes.count) { out in
                    _ = out.initialize(fromContentsOf: folderBytes)
                    _ = out[folderBytes.count...].initialize(fromContentsOf: bytes)
                    return folderBytes.count + bytes.count
                }
            }
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The file URI GIO gives the local file at `path`.
    private static func uri(of path: [CChar]) -> String {
        guard let uri = g_filename_to_uri(path, nil, nil) else { return "" }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// The name as GIO's `standard::display-name` shows it: valid UTF-8, and a name that was
    /// not marked " (invalid encoding)".
    static func displayName(_ name: UnsafePointer<CChar>) -> String {
        guard let shown = g_filename_display_name(name) else { return "?" }
        defer { g_free(shown) }
        let text = String(cString: shown)
        // U+FFFD, the replacement character, in UTF-8: a byte search, not a string one.
        guard strstr(shown, "\u{FFFD}") != nil else { return text }
        return text + String(cString: g_dgettext("glib20", " (invalid encoding)"))
    }
}
