/// Edit mode and the photos selected in it, kept by photo id, never by position.
///
/// The grid enters edit mode from its toolbar; in edit mode a click toggles a photo and
/// Shift+click selects the range from the anchor to the clicked photo, as file managers
/// do. The selection is then exported or deleted together.
///
/// Because the selection holds ids, it survives whatever happens to the display order:
/// a re-sort moves the selected photos with their ids, photos that appear are not
/// selected, and photos that leave the folder are dropped with `prune` (the anchor too,
/// when its photo goes). Operations that take an order (`selectRange`, `selectAll`,
/// `invert`, `selected`) take the current one from the caller, as ids or a `PhotoList`.
///
/// Every change returns a `SelectionChange`: the ids whose selected state flipped, and
/// whether edit mode itself was entered or left, so the grid rebinds only those tiles
/// (or every tile, when edit mode changed).
///
/// A selection exists only in edit mode: operations that select enter it, and leaving it
/// clears the selection.
///
/// ```swift
/// var selection = SelectionModel()
/// selection.enter()
/// selection.toggle("file:///p/b.jpg")                       // anchor: b
/// selection.selectRange(to: "file:///p/d.jpg", in: list)    // b, c, d selected
/// selection.selected(in: list)                              // [b, c, d], in display order
/// ```
public struct SelectionModel: Sendable, Equatable {
    /// Whether the grid is in edit mode (tiles show check marks; a click selects).
    public private(set) var isEditing = false
    /// The selected photos' ids, in no order (see `selected(in:)` for display order).
    public private(set) var ids: Set<String> = []
    /// Where a range selection starts: the photo toggled last, or nil (none yet, or it left
    /// the folder, or the selection was cleared).
    public private(set) var anchor: String?

    public init() {}

    /// How many photos are selected.
    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }

    public func isSelected(_ id: String) -> Bool { ids.contains(id) }

    // MARK: - Edit mode

    /// Enters edit mode with nothing selected; nothing happens when already in it.
    @discardableResult
    public mutating func enter() -> SelectionChange {
        guard !isEditing else { return SelectionChange() }
        isEditing = true
        return SelectionChange(editingChanged: true)
    }

    /// Leaves edit mode, clearing the selection and the anchor.
    @discardableResult
    public mutating func leave() -> SelectionChange {
        guard isEditing else { return SelectionChange() }
        let cleared = ids
        ids = []
        anchor = nil
        isEditing = false
        return SelectionChange(ids: cleared, editingChanged: true)
    }

    // MARK: - Selecting

    /// Selects or deselects one photo (a click, or Ctrl+click) and makes it the anchor.
    @discardableResult
    public mutating func toggle(_ id: String) -> SelectionChange {
        var change = enter()
        if ids.remove(id) == nil { ids.insert(id) }
        change.ids.insert(id)
        anchor = id
        return change
    }

    /// Adds photos to the selection (a rubber band, or the photos of a drop). The anchor
    /// stays where it is.
    @discardableResult
    public mutating func select(_ newIDs: some Sequence<String>) -> SelectionChange {
        var change = enter()
        for id in newIDs where ids.insert(id).inserted { change.ids.insert(id) }
        return change
    }

    /// Removes photos from the selection. The anchor stays where it is.
    @discardableResult
    public mutating func deselect(_ oldIDs: some Sequence<String>) -> SelectionChange {
        var change = SelectionChange()
        for id in oldIDs where ids.remove(id) != nil { change.ids.insert(id) }
        return change
    }

    /// Shift+click: selects every photo from the anchor to `id`, both included, in display
    /// order, keeping what was selected. The anchor does not move, so successive Shift+clicks
    /// all extend from it. Without an anchor in `order` (nothing toggled yet, or its photo
    /// is gone), this selects `id` alone and makes it the anchor. An `id` not in `order`
    /// changes nothing.
    @discardableResult
    public mutating func selectRange(to id: String, in order: [String]) -> SelectionChange {
        guard let target = order.firstIndex(of: id) else { return SelectionChange() }
        let start = anchor.flatMap { order.firstIndex(of: $0) }
        return selectRange(target: target, anchorIndex: start, targetID: id) { order[$0] }
    }

    /// Shift+click in the order of `list`; see `selectRange(to:in:)` with ids.
    @discardableResult
    public mutating func selectRange(to id: String, in list: PhotoList) -> SelectionChange {
        guard let target = list.index(of: id) else { return SelectionChange() }
        let start = anchor.flatMap { list.index(of: $0) }
        return selectRange(target: target, anchorIndex: start, targetID: id) { list[$0].id }
    }

    /// Selects every photo in `order` (Ctrl+A). Ids selected but not in `order` (photos
    /// that have left the folder) are dropped.
    @discardableResult
    public mutating func selectAll(in order: [String]) -> SelectionChange {
        let all = Set(order)
        return replace(with: all, universe: all)
    }

    @discardableResult
    public mutating func selectAll(in list: PhotoList) -> SelectionChange {
        selectAll(in: list.all.map(\.id))
    }

    /// Deselects everything (Shift+Ctrl+A), staying in edit mode; clears the anchor.
    @discardableResult
    public mutating func selectNone() -> SelectionChange {
        let cleared = ids
        ids = []
        anchor = nil
        return SelectionChange(ids: cleared)
    }

    /// Selects the photos of `order` that were not selected and deselects those that were.
    /// Ids selected but not in `order` are dropped. The anchor stays.
    @discardableResult
    public mutating func invert(in order: [String]) -> SelectionChange {
        var inverted = Set<String>()
        inverted.reserveCapacity(max(0, order.count - ids.count))
        for id in order where !ids.contains(id) { inverted.insert(id) }
        return replace(with: inverted, universe: Set(order))
    }

    @discardableResult
    public mutating func invert(in list: PhotoList) -> SelectionChange {
        invert(in: list.all.map(\.id))
    }

    // MARK: - Reading in display order

    /// The selected ids in the order of `order`; ids not in it are left out.
    public func selected(in order: [String]) -> [String] {
        guard !ids.isEmpty else { return [] }
        return order.filter { ids.contains($0) }
    }

    /// The selected ids in the display order of `list`; ids not in it are left out.
    /// Costs O(k log k) for k selected photos, whatever the size of the folder.
    public func selected(in list: PhotoList) -> [String] {
        ids.compactMap { id in list.index(of: id).map { (id, $0) } }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
    }

    // MARK: - Following the folder

    /// Drops the selected ids (and the anchor) that are not in `existing`: the photos that
    /// left the folder, or were deleted. New photos are not selected; a re-sort needs nothing.
    @discardableResult
    public mutating func prune(keeping existing: Set<String>) -> SelectionChange {
        prune { existing.contains($0) }
    }

    /// Drops the selected ids (and the anchor) that `list` no longer holds. Call it after
    /// any change of the list that removed photos (a splice with `removed > 0`); costs O(k)
    /// for k selected photos.
    @discardableResult
    public mutating func prune(in list: PhotoList) -> SelectionChange {
        prune { list.index(of: $0) != nil }
    }

    /// Follows one change of `list` (already applied to it): a splice that removed entries
    /// may have removed selected photos; one that only inserted (new photos, or a re-sort
    /// putting the same ids back) changes no selection.
    @discardableResult
    public mutating func apply(_ splice: PhotoList.Splice?, to list: PhotoList) -> SelectionChange {
        guard let splice, splice.removed > 0 else { return SelectionChange() }
        return prune(in: list)
    }

    // MARK: - Private

    /// Selects the positions from the anchor's to the target's, both included; without an
    /// anchor, the target alone, which becomes the anchor. Selecting enters edit mode.
    private mutating func selectRange(
        target: Int, anchorIndex: Int?, targetID id: String, idAt: (Int) -> String
    ) -> SelectionChange {
        var change = enter()
        guard let anchorIndex else {
            if ids.insert(id).inserted { change.ids.insert(id) }
            anchor = id
            return change
        }
        for i in min(anchorIndex, target)...max(anchorIndex, target) {
            let inRange = idAt(i)
            if ids.insert(inRange).inserted { change.ids.insert(inRange) }
        }
        return change
    }

    /// Makes `new` (a subset of `universe`, the folder's ids) the selection and reports what
    /// flipped. Ids selected outside `universe` are dropped, and so is an anchor outside it.
    private mutating func replace(with new: Set<String>, universe: Set<String>) -> SelectionChange {
        var change = enter()
        change.ids = ids.symmetricDifference(new)
        ids = new
        if let anchor, !universe.contains(anchor) { self.anchor = nil }
        return change
    }

    private mutating func prune(where keep: (String) -> Bool) -> SelectionChange {
        var change = SelectionChange()
        for id in ids where !keep(id) { change.ids.insert(id) }
        ids.subtract(change.ids)
        if let anchor, !keep(anchor) { self.anchor = nil }
        return change
    }
}

/// What one operation on a `SelectionModel` changed: the tiles to rebind.
public struct SelectionChange: Sendable, Equatable {
    /// The ids whose selected state flipped.
    public var ids: Set<String>
    /// Whether edit mode was entered or left (every tile shows or hides its check mark).
    public var editingChanged: Bool

    public init(ids: Set<String> = [], editingChanged: Bool = false) {
        self.ids = ids
        self.editingChanged = editingChanged
    }

    /// Nothing changed: no tile needs rebinding.
    public var isEmpty: Bool { ids.isEmpty && !editingChanged }
}
