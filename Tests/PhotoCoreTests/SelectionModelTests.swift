import Testing
@testable import PhotoCore

/// Ids "a" … "h" in display order.
private let letters = ["a", "b", "c", "d", "e", "f", "g", "h"]

/// A list of photos named a.jpg … e.jpg, in name order.
private func lettersList(_ names: [String] = ["a", "b", "c", "d", "e"]) -> PhotoList {
    var list = PhotoList(order: .byName)
    list.insert(names.map { photo("\($0).jpg") })
    return list
}

private func id(_ name: String) -> String { "file:///photos/\(name).jpg" }

@Suite struct SelectionModelTests {
    // MARK: Edit mode

    @Test func startsOutOfEditModeWithNothingSelected() {
        let selection = SelectionModel()
        #expect(!selection.isEditing)
        #expect(selection.count == 0 && selection.isEmpty)
        #expect(selection.anchor == nil)
        #expect(selection.selected(in: letters).isEmpty)
    }

    @Test func enterAndLeaveReportEditModeChangesOnce() {
        var selection = SelectionModel()
        #expect(selection.enter() == SelectionChange(editingChanged: true))
        #expect(selection.isEditing)
        #expect(selection.enter().isEmpty)
        #expect(selection.leave() == SelectionChange(editingChanged: true))
        #expect(!selection.isEditing)
        #expect(selection.leave().isEmpty)
    }

    @Test func leavingClearsTheSelectionAndTheAnchorAndReportsTheClearedIDs() {
        var selection = SelectionModel()
        selection.enter()
        selection.select(["a", "c"])
        selection.toggle("e")
        let change = selection.leave()
        #expect(change == SelectionChange(ids: ["a", "c", "e"], editingChanged: true))
        #expect(selection.isEmpty && selection.anchor == nil && !selection.isEditing)

        // Entering again starts from nothing.
        selection.enter()
        #expect(selection.isEmpty)
        #expect(selection.selectRange(to: "c", in: letters).ids == ["c"])
    }

    @Test func selectingOutsideEditModeEntersIt() {
        var selection = SelectionModel()
        let change = selection.toggle("b")
        #expect(change == SelectionChange(ids: ["b"], editingChanged: true))
        #expect(selection.isEditing && selection.isSelected("b"))

        var other = SelectionModel()
        #expect(other.select(["a"]).editingChanged)
        var third = SelectionModel()
        #expect(third.selectAll(in: letters).editingChanged)
        var fourth = SelectionModel()
        #expect(fourth.selectRange(to: "c", in: letters) == SelectionChange(ids: ["c"], editingChanged: true))
    }

    // MARK: Toggle, select, deselect

    @Test func toggleFlipsOneIDAndMovesTheAnchorEitherWay() {
        var selection = SelectionModel()
        selection.enter()
        #expect(selection.toggle("c") == SelectionChange(ids: ["c"]))
        #expect(selection.isSelected("c") && selection.count == 1 && selection.anchor == "c")
        #expect(selection.toggle("e") == SelectionChange(ids: ["e"]))
        #expect(selection.anchor == "e")
        #expect(selection.toggle("c") == SelectionChange(ids: ["c"]))
        #expect(!selection.isSelected("c") && selection.count == 1)
        #expect(selection.anchor == "c", "deselecting with a click still sets the anchor, as file managers do")
    }

    @Test func selectAndDeselectReportOnlyWhatFlipped() {
        var selection = SelectionModel()
        selection.enter()
        #expect(selection.select(["a", "b"]).ids == ["a", "b"])
        #expect(selection.select(["b", "c"]).ids == ["c"])
        #expect(selection.select(["a"]).isEmpty)
        #expect(selection.deselect(["b", "x"]).ids == ["b"])
        #expect(selection.ids == ["a", "c"])
        #expect(selection.anchor == nil, "select and deselect leave the anchor alone")
    }

    // MARK: Ranges

    @Test func shiftClickSelectsFromTheAnchorToTheTargetInclusiveKeepingTheRest() {
        var selection = SelectionModel()
        selection.enter()
        selection.toggle("a")
        selection.toggle("c")  // anchor c
        let change = selection.selectRange(to: "f", in: letters)
        #expect(change == SelectionChange(ids: ["d", "e", "f"]), "c was selected already")
        #expect(selection.selected(in: letters) == ["a", "c", "d", "e", "f"])
        #expect(selection.anchor == "c")
    }

    @Test func rangeGoesBackwardsAsWellAsForwards() {
        var selection = SelectionModel()
        selection.toggle("f")
        #expect(selection.selectRange(to: "c", in: letters).ids == ["c", "d", "e"])
        #expect(selection.selected(in: letters) == ["c", "d", "e", "f"])
    }

    @Test func successiveShiftClicksExtendFromTheSameAnchor() {
        var selection = SelectionModel()
        selection.toggle("d")
        selection.selectRange(to: "f", in: letters)
        #expect(selection.selectRange(to: "b", in: letters).ids == ["b", "c"])
        #expect(selection.selected(in: letters) == ["b", "c", "d", "e", "f"])
        #expect(selection.anchor == "d")
    }

    @Test func rangeFromADeselectedAnchorSelectsTheAnchorToo() {
        var selection = SelectionModel()
        selection.toggle("b")
        selection.toggle("b")  // off again, still the anchor
        #expect(selection.selectRange(to: "d", in: letters).ids == ["b", "c", "d"])
    }

    @Test func rangeWithoutAnAnchorSelectsTheTargetAndMakesItTheAnchor() {
        var selection = SelectionModel()
        selection.enter()
        #expect(selection.selectRange(to: "c", in: letters).ids == ["c"])
        #expect(selection.anchor == "c")
        #expect(selection.selectRange(to: "e", in: letters).ids == ["d", "e"])
    }

    @Test func rangeToAnIDNotInTheOrderChangesNothing() {
        var selection = SelectionModel()
        selection.toggle("b")
        #expect(selection.selectRange(to: "zz", in: letters).isEmpty)
        #expect(selection.ids == ["b"])
    }

    @Test func rangeInAPhotoListFollowsItsDisplayOrder() {
        var list = lettersList()
        var selection = SelectionModel()
        selection.toggle(id("b"))
        selection.selectRange(to: id("d"), in: list)
        #expect(selection.selected(in: list) == [id("b"), id("c"), id("d")])

        list.sort(by: PhotoOrder(key: .name, reversed: true))  // e d c b a
        selection.selectNone()
        selection.toggle(id("d"))
        #expect(selection.selectRange(to: id("a"), in: list).ids == [id("c"), id("b"), id("a")])
        #expect(selection.selected(in: list) == [id("d"), id("c"), id("b"), id("a")])
    }

    // MARK: All, none, invert

    @Test func selectAllSelectsEveryIDOfTheOrderAndReportsTheNewOnes() {
        var selection = SelectionModel()
        selection.toggle("b")
        let change = selection.selectAll(in: letters)
        #expect(change.ids == Set(letters).subtracting(["b"]))
        #expect(selection.count == letters.count)
        #expect(selection.selected(in: letters) == letters)
        #expect(selection.anchor == "b")
    }

    @Test func selectAllAndInvertDropIDsThatAreNoLongerInTheFolder() {
        var selection = SelectionModel()
        selection.toggle("gone")
        selection.toggle("a")
        let change = selection.selectAll(in: ["a", "b"])
        #expect(change.ids == ["b", "gone"])
        #expect(selection.ids == ["a", "b"])

        selection.toggle("gone")  // the anchor now: not in the folder
        #expect(selection.invert(in: ["a", "b", "c"]).ids == ["a", "b", "c", "gone"])
        #expect(selection.ids == ["c"])
        #expect(selection.anchor == nil)
    }

    @Test func selectNoneClearsEverythingButStaysInEditMode() {
        var selection = SelectionModel()
        selection.select(["a", "b", "c"])
        selection.toggle("d")
        #expect(selection.selectNone() == SelectionChange(ids: ["a", "b", "c", "d"]))
        #expect(selection.isEmpty && selection.isEditing && selection.anchor == nil)
        #expect(selection.selectNone().isEmpty)
    }

    @Test func invertFlipsEveryPhotoAndTwiceGivesTheSameSelectionBack() {
        var selection = SelectionModel()
        selection.select(["a", "c", "h"])
        let first = selection.invert(in: letters)
        #expect(first.ids == Set(letters))
        #expect(selection.selected(in: letters) == ["b", "d", "e", "f", "g"])
        selection.invert(in: letters)
        #expect(selection.selected(in: letters) == ["a", "c", "h"])

        var all = SelectionModel()
        all.selectAll(in: letters)
        all.invert(in: letters)
        #expect(all.isEmpty && all.isEditing)
    }

    @Test func photoListOverloadsAgreeWithTheIDOverloads() {
        let list = lettersList()
        let order = list.all.map(\.id)
        var byList = SelectionModel()
        var byIDs = SelectionModel()
        byList.toggle(id("b"))
        byIDs.toggle(id("b"))
        #expect(byList.invert(in: list) == byIDs.invert(in: order))
        #expect(byList == byIDs)
        #expect(byList.selectAll(in: list) == byIDs.selectAll(in: order))
        #expect(byList.selected(in: list) == byIDs.selected(in: order))
    }

    // MARK: Identity across changes of the folder

    @Test func selectionFollowsPhotosThroughAReSort() {
        var list = lettersList()
        var selection = SelectionModel()
        selection.toggle(id("b"))
        selection.toggle(id("d"))
        let splice = list.sort(by: PhotoOrder(key: .name, reversed: true))
        #expect(selection.apply(splice, to: list).isEmpty, "a re-sort changes no selected state")
        #expect(selection.selected(in: list) == [id("d"), id("b")])
        #expect(selection.isSelected(id("b")) && !selection.isSelected(id("c")))
        #expect(selection.anchor == id("d"))
        // The anchor is an id: a range after the re-sort runs in the new order.
        selection.selectRange(to: id("a"), in: list)
        #expect(selection.selected(in: list) == [id("d"), id("c"), id("b"), id("a")])
    }

    @Test func photosAddedAreNotSelectedAndShiftIndicesDoNotMatter() {
        var list = lettersList(["b", "d"])
        var selection = SelectionModel()
        selection.toggle(id("d"))  // at index 1
        let splice = list.insert([photo("a.jpg"), photo("c.jpg")])  // d now at index 3
        #expect(selection.apply(splice, to: list).isEmpty)
        #expect(selection.selected(in: list) == [id("d")])
        #expect(!selection.isSelected(id("a")) && !selection.isSelected(id("c")))
        #expect(selection.selectRange(to: id("b"), in: list).ids == [id("b"), id("c")])
    }

    @Test func photosRemovedLeaveTheSelectionAndTheAnchorWithThem() {
        var list = lettersList()
        var selection = SelectionModel()
        selection.toggle(id("a"))
        selection.toggle(id("c"))  // anchor
        selection.toggle(id("e"))
        selection.toggle(id("c"))
        selection.toggle(id("c"))  // c selected and the anchor
        let splice = list.remove(ids: [id("c"), id("d")])
        let change = selection.apply(splice, to: list)
        #expect(change == SelectionChange(ids: [id("c")]))
        #expect(selection.selected(in: list) == [id("a"), id("e")])
        #expect(selection.count == 2)
        #expect(selection.anchor == nil)
        // Without its anchor a Shift+click starts afresh.
        #expect(selection.selectRange(to: id("b"), in: list).ids == [id("b")])
        #expect(selection.anchor == id("b"))
    }

    @Test func removingUnselectedPhotosKeepsTheAnchor() {
        var list = lettersList()
        var selection = SelectionModel()
        selection.toggle(id("b"))
        let splice = list.remove(ids: [id("d")])
        #expect(selection.apply(splice, to: list).isEmpty)
        #expect(selection.anchor == id("b"))
        #expect(selection.apply(nil, to: list).isEmpty)
    }

    @Test func pruneKeepsOnlyExistingIDsAndDropsAGoneAnchor() {
        var selection = SelectionModel()
        selection.select(["a", "b", "c"])
        selection.toggle("d")
        #expect(selection.prune(keeping: ["a", "c", "x"]) == SelectionChange(ids: ["b", "d"]))
        #expect(selection.ids == ["a", "c"])
        #expect(selection.anchor == nil)
        #expect(selection.isEditing, "pruning does not leave edit mode, even when it empties the selection")
        #expect(selection.prune(keeping: []).ids == ["a", "c"])
        #expect(selection.isEmpty && selection.isEditing)
    }

    @Test func deletingTheSelectionThenUndoingBringsThePhotosBackUnselected() {
        var list = lettersList()
        var selection = SelectionModel()
        selection.toggle(id("b"))
        selection.selectRange(to: id("d"), in: list)
        let deleted = selection.selected(in: list)
        let removedPhotos = deleted.compactMap { list.photo(id: $0) }
        selection.apply(list.remove(ids: Set(deleted)), to: list)
        #expect(selection.isEmpty && selection.anchor == nil)
        // Undo: the same ids come back, not selected.
        selection.apply(list.insert(removedPhotos), to: list)
        #expect(selection.isEmpty)
        #expect(list.count == 5)
    }

    @Test func selectedInAPhotoListLeavesOutIDsItDoesNotHold() {
        let list = lettersList()
        var selection = SelectionModel()
        selection.select([id("e"), "file:///elsewhere.jpg", id("a")])
        #expect(selection.selected(in: list) == [id("a"), id("e")])
        #expect(selection.selected(in: list.all.map(\.id)) == [id("a"), id("e")])
    }

    /// A random walk of every operation, checked against a plain model of the rules.
    @Test func randomOperationsAgreeWithAPlainModel() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            var order = (0..<20).map { "p\($0)" }
            var selection = SelectionModel()
            var expected = Set<String>()
            var anchor: String?
            var added = 0
            for _ in 0..<60 {
                let before = selection.ids
                let target = order.isEmpty ? "none" : order[Int.random(in: 0..<order.count, using: &generator)]
                let change: SelectionChange
                switch Int.random(in: 0..<8, using: &generator) {
                case 0:
                    change = selection.toggle(target)
                    if expected.contains(target) { expected.remove(target) } else { expected.insert(target) }
                    anchor = target
                case 1:
                    change = selection.selectRange(to: target, in: order)
                    guard order.contains(target) else { break }
                    if let a = anchor, let i = order.firstIndex(of: a), let j = order.firstIndex(of: target) {
                        expected.formUnion(order[min(i, j)...max(i, j)])
                    } else {
                        expected.insert(target)
                        anchor = target
                    }
                case 2:
                    change = selection.selectAll(in: order)
                    expected = Set(order)
                    if let a = anchor, !order.contains(a) { anchor = nil }
                case 3:
                    change = selection.invert(in: order)
                    expected = Set(order).subtracting(expected)
                    if let a = anchor, !order.contains(a) { anchor = nil }
                case 4:
                    change = selection.selectNone()
                    expected = []
                    anchor = nil
                case 5:
                    // Photos leave the folder.
                    let gone = Set(order.filter { _ in Int.random(in: 0..<5, using: &generator) == 0 })
                    order.removeAll { gone.contains($0) }
                    change = selection.prune(keeping: Set(order))
                    expected.subtract(gone)
                    if let a = anchor, gone.contains(a) { anchor = nil }
                case 6:
                    // A re-sort and a new photo.
                    order.shuffle(using: &generator)
                    order.append("n\(added)")
                    added += 1
                    change = selection.prune(keeping: Set(order))
                default:
                    change = selection.select([target])
                    expected.insert(target)
                }
                #expect(selection.ids == expected)
                #expect(selection.anchor == anchor)
                #expect(change.ids == before.symmetricDifference(selection.ids))
                #expect(selection.selected(in: order) == order.filter { expected.contains($0) })
            }
        }
    }
}
