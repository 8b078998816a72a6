/// Why an album of the person's own (a `PhotoCollection`) could not be made, changed, read,
/// saved, deleted or restored, in words for a person.
///
/// Every message about these albums is here, in one place.
public struct CollectionProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The title is empty once trimmed.
        case emptyTitle
        /// The title is longer than `CollectionTitle.maximumLength` characters.
        case titleTooLong
        /// Another album has that title.
        case titleTaken
        /// A photo to add is not a local file's URI.
        case notAFileURI
        /// The album would hold more than `PhotoCollection.maximumPhotos` photos.
        case tooManyPhotos
        /// The album is gone: deleted (in another window, perhaps) or never there.
        case notFound
        /// Its document does not parse; the message says why. The file is left as it is.
        case unreadable
        /// The disk refused: no permission, no space, a read-only disk; the message says why.
        case storage
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    // MARK: - Titles and photos

    public static var emptyTitle: CollectionProblem {
        CollectionProblem(.emptyTitle, tr("An album needs a name."))
    }

    public static var titleTooLong: CollectionProblem {
        CollectionProblem(.titleTooLong, tr("An album’s name can be at most %d characters long.", CollectionTitle.maximumLength))
    }

    public static func titleTaken(_ title: String) -> CollectionProblem {
        CollectionProblem(.titleTaken, tr("There is already an album called “%s”.", title))
    }

    public static func notAFileURI(_ uri: String) -> CollectionProblem {
        CollectionProblem(.notAFileURI, tr("“%s” is not a local file.", uri))
    }

    public static var tooManyPhotos: CollectionProblem {
        CollectionProblem(.tooManyPhotos, tr("An album can hold at most %d photos.", PhotoCollection.maximumPhotos))
    }

    /// The album is gone: deleted in another window, or by hand.
    public static var notFound: CollectionProblem {
        CollectionProblem(.notFound, tr("The album no longer exists; it may have been deleted in another window."))
    }

    // MARK: - Documents

    /// The album's document is larger than `CollectionDocument.maximumSize`.
    public static var documentTooLarge: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document is larger than %d MiB.", CollectionDocument.maximumSize >> 20))
    }

    public static var documentNotJSON: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document is not valid JSON."))
    }

    public static var documentNotAnAlbum: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document does not hold an album."))
    }

    public static var documentWithoutVersion: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document has no version number."))
    }

    public static func documentVersion(_ version: Int) -> CollectionProblem {
        CollectionProblem(.unreadable, tr("The document is of version %d, which this version of the app cannot read.", version))
    }

    public static func documentField(_ field: String) -> CollectionProblem {
        CollectionProblem(.unreadable, tr("The document’s “%s” is missing or not of the right kind.", field))
    }

    public static var documentTitle: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document’s title is empty or longer than %d characters.", CollectionTitle.maximumLength))
    }

    public static func documentTime(_ field: String) -> CollectionProblem {
        CollectionProblem(.unreadable, tr("The document’s “%s” is not a date and time.", field))
    }

    public static var documentTooManyPhotos: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document lists more than %d photos.", PhotoCollection.maximumPhotos))
    }

    public static func documentPhoto(_ number: Int, _ uri: String) -> CollectionProblem {
        CollectionProblem(.unreadable, tr("Photo %1$d of the document is not a local file’s URI: %2$s", number, uri))
    }

    /// The album's file is a folder, a link or a device, not a document.
    public static var documentNotAFile: CollectionProblem {
        CollectionProblem(.unreadable, tr("The document is not a regular file."))
    }

    /// The file in the albums folder is named otherwise than an album (`ID.json`).
    public static var documentName: CollectionProblem {
        CollectionProblem(.unreadable, tr("The file’s name is not an album’s: letters, digits, “-” or “_”, then “.json”."))
    }

    /// The album's document could not be read from the disk (`reason`: the system's words).
    public static func documentUnreadable(_ reason: String) -> CollectionProblem {
        CollectionProblem(.unreadable, tr("The document could not be read: %s", reason))
    }

    // MARK: - The disk

    /// The albums folder could not be made (`reason`: the system's words).
    public static func folder(_ reason: String) -> CollectionProblem {
        CollectionProblem(.storage, tr("The albums folder could not be made: %s", reason))
    }

    /// The album's document could not be written (`reason`: the system's words).
    public static func saving(_ reason: String) -> CollectionProblem {
        CollectionProblem(.storage, tr("The album could not be saved: %s", reason))
    }

    /// The album's document could not be moved aside (`reason`: the system's words).
    public static func deleting(_ reason: String) -> CollectionProblem {
        CollectionProblem(.storage, tr("The album could not be deleted: %s", reason))
    }

    /// The deleted album's document could not be put back (`reason`: the system's words).
    public static func restoring(_ reason: String) -> CollectionProblem {
        CollectionProblem(.storage, tr("The album could not be restored: %s", reason))
    }
}
