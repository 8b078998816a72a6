/// What changed on a board between two of its revisions, as a renderer that keeps a
/// picture of the board needs to know it (`RenderedBoard` in PhotoIO): what to draw over
/// the picture, and what to draw again.
///
/// Places are positions in the drawing order (`Board.item(atPlace:)`); regions are in board
/// pixels. Ask the board with `Board.changes(since:)`.
public struct BoardChange: Sendable, Equatable {
    /// An item that went on top of everything drawn: drawing it over the picture is enough.
    public struct DrawnOver: Sendable, Equatable {
        public let place: Int
        public let bounds: ViewRect

        public init(place: Int, bounds: ViewRect) {
            self.place = place
            self.bounds = bounds
        }
    }

    /// Items on top of everything else, in drawing order: draw them over the picture.
    public private(set) var drawnOver: [DrawnOver] = []
    /// A region to draw again from the place `lowestPlace` up (what lies below that place
    /// did not change); nil when nothing needs drawing again.
    public private(set) var repaint: (region: ViewRect, lowestPlace: Int)?
    /// Whether the board's crop (its size and origin) changed: draw it all again.
    public private(set) var isResized = false

    /// Nothing changed.
    public static let nothing = BoardChange()

    /// Whether nothing changed.
    public var isEmpty: Bool { drawnOver.isEmpty && repaint == nil && !isResized }

    static func drawn(over place: Int, bounds: ViewRect) -> BoardChange {
        var change = BoardChange()
        change.drawnOver = [DrawnOver(place: place, bounds: bounds)]
        return change
    }

    static func repainting(_ region: ViewRect, from place: Int) -> BoardChange {
        var change = BoardChange()
        change.repaint = (region, place)
        return change
    }

    static let resized: BoardChange = {
        var change = BoardChange()
        change.isResized = true
        return change
    }()

    /// This change followed by `later`, as one change.
    ///
    /// Items drawn over stay so only while nothing needs drawing again: once a region does,
    /// they join it, so no item is ever drawn twice over itself (which a see-through
    /// highlighter would show).
    public func followed(by later: BoardChange) -> BoardChange {
        var merged = self
        merged.isResized = isResized || later.isResized
        merged.drawnOver += later.drawnOver
        if let (region, place) = later.repaint {
            merged.repaint = merged.repaint.map { ($0.region.union(region), min($0.lowestPlace, place)) } ?? (region, place)
        }
        if let (region, place) = merged.repaint, !merged.drawnOver.isEmpty {
            let union = merged.drawnOver.reduce(region) { $0.union($1.bounds) }
            let lowest = merged.drawnOver.reduce(place) { min($0, $1.place) }
            merged.repaint = (union, lowest)
            merged.drawnOver = []
        }
        return merged
    }

    public static func == (a: BoardChange, b: BoardChange) -> Bool {
        a.drawnOver == b.drawnOver && a.isResized == b.isResized
            && a.repaint?.region == b.repaint?.region && a.repaint?.lowestPlace == b.repaint?.lowestPlace
    }
}

/// The board's recent changes, by revision: what a renderer catching up asks for.
struct BoardChangeLog: Sendable {
    /// How many changes are kept; a renderer further behind draws everything again.
    static let capacity = 256

    private var entries: [BoardChange] = []
    /// The revision before the first entry.
    private var firstRevision = 0

    /// The revision after the last change.
    var revision: Int { firstRevision + entries.count }

    mutating func append(_ change: BoardChange) {
        entries.append(change)
        if entries.count > 2 * Self.capacity {
            // Trimmed in batches: amortised O(1) a change.
            entries.removeFirst(Self.capacity)
            firstRevision += Self.capacity
        }
    }

    /// Every change after `revision`, merged; nil when they are no longer all known.
    func changes(since revision: Int) -> BoardChange? {
        guard revision >= firstRevision, revision <= self.revision else { return nil }
        return entries[(revision - firstRevision)...].reduce(BoardChange.nothing) { $0.followed(by: $1) }
    }
}
