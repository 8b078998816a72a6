import Foundation
import PhotoCore
import PhotoIO

/// The settings the app remembers, loaded once on a worker thread and saved on one after
/// each change, so the main thread never waits on the settings file.
@MainActor
final class Preferences {
    static let shared = Preferences()

    private(set) var settings: BrowserSettings?
    private var waiting: [(BrowserSettings) -> Void] = []
    private let file = SettingsFile()
    /// Saves run one after another, so the last change is the one that stays on disk.
    private let saving = DispatchQueue(label: "settings")

    /// Calls `body` with the settings, at once when loaded, else once they are.
    func whenLoaded(_ body: @escaping (BrowserSettings) -> Void) {
        if let settings { return body(settings) }
        waiting.append(body)
        guard waiting.count == 1 else { return }
        let file = self.file
        Thread.detachNewThread {
            let loaded = file.load()
            onMain {
                let preferences = Preferences.shared
                preferences.settings = loaded
                let bodies = preferences.waiting
                preferences.waiting.removeAll()
                for body in bodies { body(loaded) }
            }
        }
    }

    /// Changes the settings and saves them in the background.
    func update(_ change: (inout BrowserSettings) -> Void) {
        var settings = self.settings ?? BrowserSettings()
        change(&settings)
        guard settings != self.settings else { return }
        self.settings = settings
        let file = self.file, snapshot = settings
        saving.async {
            if !file.save(snapshot) { printError("could not save the settings to \(file.path)") }
        }
    }
}
