import PhotoCore

/// What the actions on the person's own albums need of the window they are taken in: the
/// album it shows, the photos acted on, its undo history, and showing another album.
@MainActor
protocol AlbumsShown: AnyObject {
    /// The album shown, while a folder is open.
    var shownAlbum: AlbumID? { get }
    /// The photos an action acts on: the selection, the photo in the viewer, a context
    /// menu's photos.
    var photosToActOn: [Photo] { get }
    /// The steps Ctrl+Z takes back, while a folder is open.
    var undoHistory: UndoHistory? { get }
    /// Shows an album (one added to, or one brought back).
    func show(_ album: AlbumID)
    /// The person's albums changed: the switcher and the actions offered follow.
    func albumsChanged()
}

extension AlbumsShown {
    /// The album of the person's own shown, if one is.
    var shownCollection: PhotoCollection? {
        guard case .collection(let id) = shownAlbum else { return nil }
        return YourAlbums.shared.collection(id)
    }
}
