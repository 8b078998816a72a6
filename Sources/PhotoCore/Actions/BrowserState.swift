/// What a browser window shows and is doing, as far as which of its actions may run depends
/// on it: the one input of `ActionPolicy.browser`.
///
/// The window builds it afresh whenever something it holds may have changed (a page shown,
/// edit mode, a selection, a menu opened, a rotation, a job) and applies the policy's answer
/// when it differs from the last one.
public struct BrowserState: Hashable, Sendable {
    /// The page the window shows.
    public enum Page: CaseIterable, Hashable, Sendable {
        /// A status page: welcome, an empty or unreadable folder.
        case status
        case grid
        case viewer
    }

    /// Whether the window browses, or chooses photos for a script (`--pick`).
    public enum Picking: CaseIterable, Hashable, Sendable {
        case browsing
        /// `--pick`: one photo.
        case one
        /// `--pick --multiple`.
        case several
    }

    /// The album shown.
    public enum Album: CaseIterable, Hashable, Sendable {
        /// No folder is open.
        case none
        /// A folder, or one of its subfolders' albums, or a web album.
        case folder
        /// An album of the person's own.
        case yours
    }

    /// Where the photos acted on are (else the album's): this computer, another machine
    /// (GVfs), or the web.
    public enum Place: CaseIterable, Hashable, Sendable {
        case local
        case remote
        case web
    }

    /// What the photos acted on are.
    public enum PhotoKind: CaseIterable, Hashable, Sendable {
        /// Photos whose files are there.
        case photo
        /// Photos of an album of the person's own whose files are gone ("Not Found").
        case notFound
    }

    /// How many photos Delete, Export… and the photo's menu act on: a context menu's photos,
    /// else the viewer's photo, else the selection in edit mode.
    public enum Count: CaseIterable, Hashable, Sendable {
        case none
        case one
        case several
    }

    public var page: Page
    public var picking: Picking
    public var album: Album
    public var place: Place
    public var kind: PhotoKind
    public var actsOn: Count
    /// Whether the album shown has photos (the grid's focused photo is then one to act on).
    public var hasPhotos: Bool
    /// Edit mode (always on when choosing several photos).
    public var editing: Bool
    /// An export is under way (one at a time).
    public var jobRunning: Bool
    /// The viewer's photo is turned and the turn not yet written into its file.
    public var rotationPending: Bool
    /// The viewer shows a movie over the photo's still: a video, or a Live Photo's or a
    /// motion photo's movie playing. Zoom and rotation would act on the still it hides.
    public var showsMovie: Bool

    public init(page: Page = .status, picking: Picking = .browsing, album: Album = .none, place: Place = .local,
                kind: PhotoKind = .photo, actsOn: Count = .none, hasPhotos: Bool = false, editing: Bool = false,
                jobRunning: Bool = false, rotationPending: Bool = false, showsMovie: Bool = false) {
        self.page = page
        self.picking = picking
        self.album = album
        self.place = place
        self.kind = kind
        self.actsOn = actsOn
        self.hasPhotos = hasPhotos
        self.editing = editing
        self.jobRunning = jobRunning
        self.rotationPending = rotationPending
        self.showsMovie = showsMovie
    }

    /// Every state there is: each field's every value with every other's.
    public static var all: [BrowserState] {
        var states: [BrowserState] = []
        let flags = [false, true]
        for page in Page.allCases {
            for picking in Picking.allCases {
                for album in Album.allCases {
                    for place in Place.allCases {
                        for kind in PhotoKind.allCases {
                            for actsOn in Count.allCases {
                                for hasPhotos in flags {
                                    for editing in flags {
                                        for jobRunning in flags {
                                            for rotationPending in flags {
                                                for showsMovie in flags {
                                                    states.append(BrowserState(
                                                        page: page, picking: picking, album: album, place: place, kind: kind,
                                                        actsOn: actsOn, hasPhotos: hasPhotos, editing: editing,
                                                        jobRunning: jobRunning, rotationPending: rotationPending, showsMovie: showsMovie))
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return states
    }
}

/// A browser window's actions (`win.NAME`, the raw value), each run by a button, a menu
/// item or a key.
/// The viewer's own actions (`viewer.NAME`: its toolbar's buttons, its keys and gestures act
/// through them): what changes the view of the photo shown.
public enum ViewerAction: String, CaseIterable, Hashable, Sendable {
    case zoomIn = "zoom-in"
    case zoomOut = "zoom-out"
    case zoomFit = "zoom-fit"
    case zoomActual = "zoom-actual"
    case rotateLeft = "rotate-left"
    case rotateRight = "rotate-right"
}

public enum BrowserAction: String, CaseIterable, Hashable, Sendable {
    case open
    case openLocation = "open-location"
    case back
    case properties
    case edit
    case leaveEdit = "leave-edit"
    case selectAll = "select-all"
    case selectNone = "select-none"
    case export
    case trash
    case deletePermanently = "delete-permanently"
    case undo
    case rename
    case saveRotation = "save-rotation"
    case photoProperties = "photo-properties"
    case openWith = "open-with"
    case showInFiles = "show-in-files"
    case copy
    case slideshow
    case print
    case setBackground = "set-background"
    case markUp = "mark-up"
    case saveCopy = "save-copy"
    case addToAlbum = "add-to-album"
    case removeFromAlbum = "remove-from-album"
    case renameAlbum = "rename-album"
    case deleteAlbum = "delete-album"
    case nextAlbum = "next-album"
    case previousAlbum = "previous-album"
    case album1 = "album-1", album2 = "album-2", album3 = "album-3", album4 = "album-4", album5 = "album-5"
    case album6 = "album-6", album7 = "album-7", album8 = "album-8", album9 = "album-9"
    case largerTiles = "larger-tiles"
    case smallerTiles = "smaller-tiles"
    case pickCancel = "pick-cancel"
    case pickChoose = "pick-choose"
    case rate0 = "rate-0", rate1 = "rate-1", rate2 = "rate-2", rate3 = "rate-3", rate4 = "rate-4", rate5 = "rate-5"
    case favourite
    /// Ctrl+T: the tags of the photos acted on.
    case tag
    /// Ctrl+F: the search bar over the grid.
    case search

    /// The action's name in the window's action map.
    public var name: String { rawValue }

    /// Whether running it changes something outside the window: a file (written, renamed,
    /// moved, deleted, exported, printed to a file), an album of the person's own, the
    /// desktop's background, or opens a board that saves. A window choosing photos for a
    /// script enables none of these.
    public var changesSomething: Bool {
        switch self {
        case .edit, .leaveEdit, .export, .trash, .deletePermanently, .undo, .rename, .saveRotation, .print,
             .setBackground, .markUp, .saveCopy, .addToAlbum, .removeFromAlbum, .renameAlbum, .deleteAlbum,
             .rate0, .rate1, .rate2, .rate3, .rate4, .rate5, .favourite, .tag:
            return true
        default:
            return false
        }
    }

    /// The actions choosing an album by its place in the switcher (Alt+1…9).
    public static let albumNumbers: [BrowserAction] = [.album1, .album2, .album3, .album4, .album5, .album6, .album7, .album8, .album9]
    /// The actions rating the photos acted on 0 to 5 stars (Ctrl+0…5).
    public static let ratings: [BrowserAction] = [.rate0, .rate1, .rate2, .rate3, .rate4, .rate5]
}

/// The buttons of a browser window that show only where they do something.
public enum BrowserButton: CaseIterable, Hashable, Sendable {
    /// The header's Back to the folder.
    case back
    /// The header's sort menu.
    case sort
    /// The header's Select toggle (edit mode).
    case select
    /// The header's Choose (`--pick`).
    case choose
    /// The bar under the grid in edit mode.
    case editBar
    /// The edit bar's Remove from Album.
    case removeFromAlbum
    /// The viewer toolbar's Save Rotation.
    case saveRotation
    /// The viewer toolbar's labelled "Selected" check.
    case selectedCheck
}
