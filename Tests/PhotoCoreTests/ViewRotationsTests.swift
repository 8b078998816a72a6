import PhotoCore
import Testing

@Suite struct ViewRotationsTests {
    let before = PhotoVersion(id: "file:///p/a.jpg", modified: 1_000_000, size: 5000)
    let after = PhotoVersion(id: "file:///p/a.jpg", modified: 2_000_000, size: 5010)

    @Test func aRotationIsKeptPerPhotoAndShownAsQuarterTurns() {
        var rotations = ViewRotations()
        rotations["a"] = 5
        rotations["b"] = -1
        #expect(rotations.shown("a") == 1)
        #expect(rotations.shown("b") == 3)
        #expect(rotations.shown("c") == 0)
        rotations.rename("a", to: "z")
        #expect(rotations.shown("a") == 0)
        #expect(rotations.shown("z") == 1)
    }

    @Test func theSavesAnswerFirstDropsTheRotationWhenTheNewVersionIsListed() {
        var rotations = ViewRotations()
        rotations[before.id] = 1
        let dropped1 = rotations.saved(before, listed: before)
        #expect(!dropped1)
        #expect(rotations.shown(before.id) == 1)
        let dropped2 = rotations.listed(before)
        #expect(!dropped2)
        let dropped3 = rotations.listed(after)
        #expect(dropped3)
        #expect(rotations.shown(before.id) == 0)
        // Once: a later rotation of the new version is the person's again.
        rotations[after.id] = 2
        let dropped4 = rotations.listed(PhotoVersion(id: after.id, modified: 3_000_000, size: 5010))
        #expect(!dropped4)
        #expect(rotations.shown(after.id) == 2)
    }

    @Test func theMonitorFirstDropsTheRotationWhenTheSaveAnswers() {
        // The folder's monitor listed the rewritten file before the save's answer came back:
        // the answer finds the new version already listed and drops the view's rotation then.
        var rotations = ViewRotations()
        rotations[before.id] = 1
        let dropped5 = rotations.listed(after)
        #expect(!dropped5)
        #expect(rotations.shown(before.id) == 1)
        let dropped6 = rotations.saved(before, listed: after)
        #expect(dropped6)
        #expect(rotations.shown(before.id) == 0)
        let dropped7 = rotations.listed(after)
        #expect(!dropped7)
    }

    @Test func aSavedPhotoThatLeftTheAlbumKeepsNothingListed() {
        var rotations = ViewRotations()
        rotations[before.id] = 3
        let dropped8 = rotations.saved(before, listed: nil)
        #expect(!dropped8)
        #expect(rotations.shown(before.id) == 3)
        rotations.rename(before.id, to: "file:///p/b.jpg")
        let dropped9 = rotations.listed(PhotoVersion(id: "file:///p/b.jpg", modified: 9, size: 1))
        #expect(dropped9)
        #expect(rotations.shown("file:///p/b.jpg") == 0)
    }
}
