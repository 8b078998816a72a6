/// What the window shows, as the controllers in it read it: the open folder (its source, its
/// album pages, the page shown) and which of the page's views is on screen. The controllers
/// hold it weakly: the window owns them.
@MainActor
protocol ShownPages: AnyObject {
    /// The folder open in the window, nil while a status page is all it shows.
    var folder: OpenFolder? { get }
    /// The viewer is the page shown.
    var isViewerShown: Bool { get }
    /// The grid is the page shown.
    var isGridShown: Bool { get }
}
