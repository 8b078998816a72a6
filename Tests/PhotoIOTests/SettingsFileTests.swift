import Foundation
import PhotoCore
import PhotoIO
import Testing

@Suite struct SettingsFileTests {
    private func temporaryPath() -> String {
        NSTemporaryDirectory() + "gphotobrowse-settings-\(UUID().uuidString)/nested/settings.ini"
    }

    @Test func aMissingFileGivesTheDefaults() {
        #expect(SettingsFile(path: temporaryPath()).load() == BrowserSettings())
    }

    @Test func savedSettingsAreLoadedBack() throws {
        let file = SettingsFile(path: temporaryPath())
        let chosen = BrowserSettings(order: PhotoOrder(key: .name, reversed: true))
        #expect(file.save(chosen))
        #expect(file.load() == chosen)
        let mode = try FileManager.default.attributesOfItem(atPath: (file.path as NSString).deletingLastPathComponent)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func aGarbledFileGivesTheDefaults() throws {
        let file = SettingsFile(path: temporaryPath())
        try FileManager.default.createDirectory(atPath: (file.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data([0xFF, 0x00, 0x5B, 0x0A, 0x3D]).write(to: URL(fileURLWithPath: file.path))
        #expect(file.load() == BrowserSettings())
    }
}
