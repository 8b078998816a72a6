import PhotoCore
import Testing

/// Set as Background's decisions: what the desktop portal's answer means, GNOME's keys, the
/// time the portal is given.
@Suite struct DesktopBackgroundTests {
    typealias Answer = DesktopBackground.PortalAnswer

    @Test func thePortalsAnswerDecidesWhetherGNOMEsSettingsAreTried() {
        #expect(DesktopBackground.outcome(of: Answer(done: true)) == .set)
        // Cancelled in the desktop's own dialog: nothing more, nothing said.
        #expect(DesktopBackground.outcome(of: Answer(cancelled: true)) == .cancelledByPerson)
        // The portal is there and said no: it is not tried another way.
        #expect(DesktopBackground.outcome(of: Answer(refused: true)) == .refused)
        // No answer in time (we cancelled): GNOME's settings.
        #expect(DesktopBackground.outcome(of: Answer(cancelled: true, gaveUp: true)) == .useSettings)
        // No portal, no Wallpaper interface: any other error.
        #expect(DesktopBackground.outcome(of: Answer()) == .useSettings)
    }

    @Test func eachPlaceSetsItsKeysTheDarkPictureOnlyWhereTheDesktopHasIt() {
        let background = DesktopBackground.settingsKeys(for: .background)
        #expect(background.map(\.key) == ["picture-uri", "picture-uri-dark"])
        #expect(background.allSatisfy { $0.schema == "org.gnome.desktop.background" })
        #expect(background.map(\.isRequired) == [true, false])
        let lock = DesktopBackground.settingsKeys(for: .lockscreen)
        #expect(lock.map(\.schema) == ["org.gnome.desktop.screensaver"] && lock.map(\.key) == ["picture-uri"])
        #expect(DesktopBackground.settingsKeys(for: .both).count == 3)
        #expect(DesktopBackground.Place(rawValue: "both") == .both)
        #expect(DesktopBackground.Place.allCases.map(\.rawValue) == ["background", "lockscreen", "both"])
    }

    @Test func thePortalIsGivenFortySecondsUnlessATestSaysOtherwise() {
        #expect(DesktopBackground.portalPatience(given: nil) == 40_000)
        #expect(DesktopBackground.portalPatience(given: "500") == 500)
        #expect(DesktopBackground.portalPatience(given: "0") == 40_000)
        #expect(DesktopBackground.portalPatience(given: "soon") == 40_000)
    }

    @Test func thePersonIsToldWhereThePhotoWent() {
        let said = DesktopBackground.Place.allCases.map { DesktopBackground.confirmation($0, name: "Sea.jpg") }
        #expect(said.allSatisfy { $0.contains("Sea.jpg") })
        #expect(Set(said).count == 3)
    }
}
