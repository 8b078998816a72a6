/// What a drawing board's window shows, for `ActionPolicy.board`.
public struct BoardState: Hashable, Sendable {
    public enum Page: CaseIterable, Hashable, Sendable {
        /// The photo is being opened.
        case opening
        /// The board, ready to draw on.
        case board
        /// The photo could not be opened: a page saying why.
        case problem
    }

    public var page: Page
    public var canUndo: Bool
    public var canRedo: Bool

    public init(page: Page, canUndo: Bool = false, canRedo: Bool = false) {
        self.page = page
        self.canUndo = canUndo
        self.canRedo = canRedo
    }

    /// Every state there is.
    public static var all: [BoardState] {
        Page.allCases.flatMap { page in
            [false, true].flatMap { undo in [false, true].map { redo in BoardState(page: page, canUndo: undo, canRedo: redo) } }
        }
    }
}

/// A drawing board window's actions (`win.NAME`).
public enum BoardAction: String, CaseIterable, Hashable, Sendable {
    case undo
    case redo
    case clear
    case save
    case saveAs = "save-as"
    case copyImage = "copy-image"
    case insertPhoto = "insert-photo"
    case pastePhoto = "paste-photo"

    public var name: String { rawValue }
}

/// The board window's header buttons, shown only on the board itself.
public enum BoardButton: CaseIterable, Hashable, Sendable {
    case undo
    case redo
    case save
    case menu
}
