@testable import PhotoCore
import Testing

@Suite struct TagEditingTests {
    @Test func theFieldStartsWithTheTagsEveryPhotoHas() {
        #expect(TagEditing(photosTags: [["Beach", "sea", "Kyoto"], ["beach", "kyoto"]]).shared == ["Beach", "Kyoto"])
        #expect(TagEditing(photosTags: [["a", "b"]]).text == "a, b")
        #expect(TagEditing(photosTags: []).shared.isEmpty)
    }

    @Test func typedTagsAreSplitOnCommasAndCleaned() {
        #expect(TagEditing.tags(in: " beach ,, Kyoto 2024;sea，海 ") == ["beach", "Kyoto 2024", "sea", "海"])
        #expect(TagEditing.tags(in: "a, A, \u{202E}b") == ["a", "b"])
    }

    @Test func theChangeKeepsEachPhotosOtherTags() {
        let editing = TagEditing(photosTags: [["beach", "sea"], ["beach", "dunes"]])
        let change = editing.change(typed: "coast")
        #expect(change == .editTags(added: ["coast"], removed: ["beach"]))
        #expect(change?.applied(to: PhotoMarks(rating: 3, tags: ["beach", "sea"])) == PhotoMarks(rating: 3, tags: ["sea", "coast"]))
        #expect(change?.applied(to: PhotoMarks(tags: ["Beach", "dunes"])).tags == ["dunes", "coast"])
        #expect(editing.change(typed: "Beach") == nil)
        #expect(editing.change(typed: "") == .editTags(added: [], removed: ["beach"]))
    }

    @Test func suggestionsCompleteTheLastWordFromTagsUsed() {
        let used = ["harbour": 3, "Harvest": 5, "home": 1, "Old Harbour": 1, "beach": 9]
        #expect(TagEditing.suggestions(for: "beach, har", from: used) == ["Harvest", "harbour", "Old Harbour"])
        #expect(TagEditing.suggestions(for: "harbour, ", from: used, limit: 2) == ["beach", "Harvest"])
        #expect(TagEditing.suggestions(for: "hä", from: used).contains("harbour"))
        #expect(TagEditing.completing("beach, har", with: "harbour") == "beach, harbour, ")
        #expect(TagEditing.completing("har", with: "harbour") == "harbour, ")
    }
}

/// The tags used, and where the tag editor points.
@Suite struct TagEditorPlaceTests {
    @Test func tagsUsedCountThePhotosHavingThem() {
        let used = TagEditing.uses(in: [PhotoMarks(tags: ["beach", "sea"]), PhotoMarks(tags: ["beach"]), PhotoMarks()])
        #expect(used == ["beach": 2, "sea": 1])
        #expect(TagEditing.uses(in: [PhotoMarks]()) == [:])
    }

    @Test func theViewerPointsUnderTheTitle() {
        #expect(TagEditing.place(for: ["a"], inViewer: true, focused: "a") { _ in true } == .title)
    }

    @Test func theGridPointsAtTheFocusedTileWhenItIsOneOfThePhotos() {
        #expect(TagEditing.place(for: ["a", "b"], inViewer: false, focused: "b") { _ in true } == .tile("b"))
        // The focused tile is not one of them: the first of them in view.
        #expect(TagEditing.place(for: ["a", "b"], inViewer: false, focused: "c") { _ in true } == .tile("a"))
        #expect(TagEditing.place(for: ["a", "b"], inViewer: false, focused: nil) { $0 == "b" } == .tile("b"))
        // None in view: under the title.
        #expect(TagEditing.place(for: ["a", "b"], inViewer: false, focused: "a") { _ in false } == .title)
    }
}
