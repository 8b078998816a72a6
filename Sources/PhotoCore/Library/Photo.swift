import Glibc

/// One photo in a folder, as the grid and the viewer know it.
///
/// A photo is identified by its URI, which survives any byte sequence a file name can hold
/// (non-UTF-8 names are percent-escaped), so the URI is what the rest of the app keys on.
public struct Photo: Sendable, Hashable, Identifiable {
    /// What never changes for a listed file, held once and shared by every copy of the
    /// photo: a folder of 100,000 photos keeps each in several lists (its folder, the albums
    /// shown, their orders), so a copy costs one reference count instead of four and the
    /// value stays small (24 bytes: this, the date taken and the companions). A plain name
    /// is not kept beside the URI that ends with it, and a short sort key is held inline.
    private final class Names: Sendable {
        let id: String
        /// `id`'s hash (`String.photoIDHash`), made once, on the thread that listed the file.
        let idHash: Int
        /// The display name, or nil when it is the end of the URI after its last "/" (and holds
        /// none) and longer than a string holds without an allocation of its own (15 bytes): a
        /// plain name (`photo-000123.jpg`) is kept once, in the URI.
        let ownDisplayName: String?
        let contentType: String
        let nameKey: NaturalSortKey
        let modified: Int64
        let size: Int64

        init(id: String, displayName: String, contentType: String, modified: Int64, size: Int64) {
            self.id = id
            idHash = id.photoIDHash
            var (uri, name) = (id, displayName)
            // Compared as bytes in place: every photo of a large folder's listing comes here.
            let isURIEnd = uri.withUTF8 { uri in
                name.withUTF8 { name in
                    // A name holding a "/" (a web album's title) is not what follows the URI's last one.
                    name.count > 15 && uri.count > name.count
                        && uri[uri.count - name.count - 1] == UInt8(ascii: "/")
                        && memcmp(uri.baseAddress! + (uri.count - name.count), name.baseAddress!, name.count) == 0
                        && memchr(name.baseAddress!, Int32(UInt8(ascii: "/")), name.count) == nil
                }
            }
            ownDisplayName = isURIEnd ? nil : displayName
            self.contentType = contentType
            self.modified = modified
            self.size = size
            nameKey = NaturalSortKey(displayName)
        }

        /// A name that is the URI's last `nameLength` bytes, after a "/" and holding none.
        init(id: String, nameLength: Int, contentType: String, modified: Int64, size: Int64) {
            self.id = id
            idHash = id.photoIDHash
            var uri = id
            (ownDisplayName, nameKey) = uri.withUTF8 { uri in
                precondition(nameLength < uri.count && uri[uri.count - nameLength - 1] == UInt8(ascii: "/"))
                let name = UnsafeBufferPointer(rebasing: uri[(uri.count - nameLength)...])
                return (nameLength > 15 ? nil : String(decoding: name, as: UTF8.self), NaturalSortKey(utf8: name))
            }
            self.contentType = contentType
            self.modified = modified
            self.size = size
        }

        /// `body` of the display name's UTF-8 bytes, where they are held: a plain name is read
        /// from the URI's end, with no string made.
        func withDisplayNameUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            var name = ownDisplayName ?? id
            let isURIEnd = ownDisplayName == nil
            return name.withUTF8 { bytes in
                guard isURIEnd else { return body(bytes) }
                let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                return body(UnsafeBufferPointer(rebasing: bytes[start...]))
            }
        }

        var displayName: String {
            ownDisplayName ?? withDisplayNameUTF8 { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// `storedDate` of a photo whose date taken is not known.
    private static let noDate = Int64.min

    private let names: Names
    /// The file's URI (`file:///…`); unique within a folder.
    public var id: String { names.id }
    /// The id's hash, as `String.photoIDHash` gives it: lists find photos by it (`PhotoPlaces`).
    var idHash: Int { names.idHash }
    /// Which listed file this is, the same for every copy of this value (a date read since
    /// included), cheaper to look up than `id`: a new listing of the file is another one.
    /// Valid while a copy of the photo is held.
    public var identity: ObjectIdentifier { ObjectIdentifier(names) }
    /// The name to show a person (GIO's display name: valid UTF-8 even for odd names).
    public var displayName: String { names.displayName }
    /// `body` of the display name's UTF-8 bytes, without a string made for a plain name.
    public func withDisplayNameUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        names.withDisplayNameUTF8(body)
    }
    /// The content type known so far (by name while listing, by content once sniffed).
    public var contentType: String { names.contentType }
    /// Precomputed key for natural name order.
    public var nameKey: NaturalSortKey { names.nameKey }
    /// Modification time in microseconds since the Unix epoch.
    public var modified: Int64 { names.modified }
    /// Size in bytes.
    public var size: Int64 { names.size }
    /// When the photo was taken, in microseconds since the Unix epoch (see `ExifDate` for
    /// how a camera's wall-clock time becomes this number), or nil when not known: not
    /// read yet, or the file records none. Dates arrive after listing, through
    /// `PhotoList.setDatesTaken`.
    public var dateTaken: Int64? {
        get { storedDate == Self.noDate ? nil : storedDate }
        set { storedDate = newValue ?? Self.noDate }
    }
    /// The date taken, `noDate` for nil: 8 bytes where an optional takes 16.
    private var storedDate: Int64
    /// Files shown as part of this photo: the RAW files beside a JPEG of the same name
    /// (`PairedFiles`). The photo shown is this one; trash and export take them too.
    public var companions: [Photo] = []

    public init(id: String, displayName: String, modified: Int64, size: Int64, contentType: String, dateTaken: Int64? = nil) {
        names = Names(id: id, displayName: displayName, contentType: contentType, modified: modified, size: size)
        storedDate = dateTaken ?? Self.noDate
    }

    /// A photo whose display name is the end of its URI: its last `displayNameLength` bytes,
    /// after a "/" and holding none, valid UTF-8 that needs no escaping in a URI (a plain
    /// name such as `IMG_1234.JPG`). The same photo as one given that name, made without a
    /// string of its own: a large folder's listing makes one for each of its files.
    public init(id: String, displayNameLength: Int, modified: Int64, size: Int64, contentType: String) {
        names = Names(id: id, nameLength: displayNameLength, contentType: contentType, modified: modified, size: size)
        storedDate = Self.noDate
    }

    /// The time date-taken order sorts by: the date taken, else the modification time.
    @inlinable public var dateTakenOrModified: Int64 { dateTaken ?? modified }

    public static func == (a: Photo, b: Photo) -> Bool {
        guard a.storedDate == b.storedDate, a.companions == b.companions else { return false }
        return a.names === b.names
            || (a.modified == b.modified && a.size == b.size && a.names.id == b.names.id
                && a.names.displayName == b.names.displayName && a.names.contentType == b.names.contentType)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(names.id)
        hasher.combine(modified)
        hasher.combine(size)
        hasher.combine(dateTaken)
    }
}

/// Which version of which photo: a photo rewritten on disk (a new modification time or
/// size) is a new version, so what was decoded from the old bytes (a thumbnail, a viewer
/// image) is never shown for it.
public struct PhotoVersion: Sendable, Hashable {
    public let id: String
    public let modified: Int64
    public let size: Int64

    public init(id: String, modified: Int64, size: Int64) {
        self.id = id
        self.modified = modified
        self.size = size
    }
}

extension Photo {
    /// This photo's version: its id, modification time and size.
    public var version: PhotoVersion { PhotoVersion(id: id, modified: modified, size: size) }
}
