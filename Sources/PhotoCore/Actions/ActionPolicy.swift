/// Which of a window's actions are enabled and which of its buttons show, decided in one
/// place from what the window shows and does.
///
/// A pure function of the window's state: the window applies its answer whenever that state
/// changes, and nothing else enables or disables an action. The rule that matters most:
/// a window choosing photos for a script (`--pick`) enables nothing that changes anything
/// (`BrowserAction.changesSomething`), whatever else is true.
///
/// ```swift
/// let offer = ActionPolicy.browser(BrowserState(page: .viewer, album: .folder, actsOn: .one, hasPhotos: true))
/// offer.enabled.contains(.trash)          // true
/// offer.shown.contains(.saveRotation)     // false: the photo is not turned
/// ```
public enum ActionPolicy {
    /// What a window offers: the actions enabled and the buttons shown.
    public struct Offer<Action: Hashable & Sendable, Button: Hashable & Sendable>: Hashable, Sendable {
        public var enabled: Set<Action>
        public var shown: Set<Button>
    }

    public static func browser(_ state: BrowserState) -> Offer<BrowserAction, BrowserButton> {
        var enabled: Set<BrowserAction> = [.open, .openLocation]
        let browsing = state.picking == .browsing
        let folderOpen = state.album != .none
        let showsPhotos = folderOpen && state.page != .status && state.hasPhotos
        let grid = state.page == .grid && folderOpen
        let viewer = state.page == .viewer && showsPhotos
        let acting = showsPhotos && state.actsOn != .none
        let actingOnOne = showsPhotos && state.actsOn == .one
        let files = state.kind == .photo
        let notWeb = state.place != .web
        // The photo the grid's focus is on counts where no other is named.
        let focusedOrActing = acting || (grid && showsPhotos && state.actsOn == .none)
        func enable(_ action: BrowserAction, when condition: Bool) { if condition { enabled.insert(action) } }

        // Going about: open, back, the viewer's panel, albums, tiles, the slideshow.
        enable(.back, when: viewer)
        enable(.properties, when: viewer)
        enable(.nextAlbum, when: folderOpen)
        enable(.previousAlbum, when: folderOpen)
        for action in BrowserAction.albumNumbers { enable(action, when: folderOpen) }
        enable(.largerTiles, when: folderOpen)
        enable(.smallerTiles, when: folderOpen)
        enable(.slideshow, when: showsPhotos)
        // Searching shows fewer photos and changes nothing: in any album, choosing too.
        enable(.search, when: state.page == .grid && folderOpen)

        // Selecting: edit mode while browsing; ticking photos when choosing several.
        enable(.edit, when: grid && browsing)
        enable(.leaveEdit, when: grid && browsing && state.editing)
        enable(.selectAll, when: grid && showsPhotos && state.picking != .one)
        enable(.selectNone, when: grid && state.editing)

        // Reading the photos acted on.
        enable(.photoProperties, when: actingOnOne && files)
        enable(.openWith, when: actingOnOne && files)
        enable(.showInFiles, when: actingOnOne && files && notWeb)
        enable(.copy, when: acting && files)

        // Changing something: only while browsing.
        if browsing {
            enable(.export, when: acting && files && !state.jobRunning)
            enable(.saveCopy, when: actingOnOne && files)
            enable(.trash, when: acting && files && notWeb)
            enable(.deletePermanently, when: acting && files && notWeb)
            enable(.undo, when: folderOpen)
            enable(.rename, when: files && notWeb && (actingOnOne || (focusedOrActing && state.actsOn == .none)))
            enable(.saveRotation, when: viewer && state.rotationPending && files && notWeb)
            enable(.print, when: focusedOrActing && files)
            enable(.setBackground, when: actingOnOne && files)
            enable(.markUp, when: files && (actingOnOne || (focusedOrActing && state.actsOn == .none)))
            enable(.addToAlbum, when: acting && files)
            enable(.removeFromAlbum, when: acting && state.album == .yours)
            enable(.renameAlbum, when: state.album == .yours)
            enable(.deleteAlbum, when: state.album == .yours)
            // Marks go to a sidecar or the app's own store: any photo that is one, web ones too.
            for action in BrowserAction.ratings + [.favourite, .tag] { enable(action, when: focusedOrActing && files) }
        } else {
            enable(.pickCancel, when: true)
            enable(.pickChoose, when: showsPhotos)
        }

        var shown: Set<BrowserButton> = []
        func show(_ button: BrowserButton, when condition: Bool) { if condition { shown.insert(button) } }
        show(.back, when: state.page == .viewer && folderOpen)
        show(.sort, when: grid)
        show(.select, when: grid && browsing)
        show(.choose, when: !browsing && state.page != .status)
        show(.editBar, when: grid && browsing && state.editing)
        show(.removeFromAlbum, when: grid && browsing && state.editing && state.album == .yours)
        show(.saveRotation, when: enabled.contains(.saveRotation))
        // The viewer's tick says the photo shown is selected; outside edit mode there is no
        // selection for it to be part of.
        show(.selectedCheck, when: viewer && state.editing && state.picking != .one)
        return Offer(enabled: enabled, shown: shown)
    }

    /// The viewer's actions enabled: zoom and rotation while it shows a photo, none while a
    /// movie plays over the still (a video's frames, a Live Photo's movie), where they would
    /// turn and zoom a still no one sees.
    public static func viewer(_ state: BrowserState) -> Set<ViewerAction> {
        guard state.page == .viewer, state.hasPhotos, state.album != .none, !state.showsMovie else { return [] }
        return Set(ViewerAction.allCases)
    }

    public static func board(_ state: BoardState) -> Offer<BoardAction, BoardButton> {
        guard state.page == .board else { return Offer(enabled: [], shown: []) }
        var enabled: Set<BoardAction> = [.clear, .save, .saveAs, .copyImage, .insertPhoto, .pastePhoto]
        if state.canUndo { enabled.insert(.undo) }
        if state.canRedo { enabled.insert(.redo) }
        return Offer(enabled: enabled, shown: Set(BoardButton.allCases))
    }
}
