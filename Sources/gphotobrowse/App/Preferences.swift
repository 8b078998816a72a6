import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The settings the app remembers, in GSettings (PhotoIO's `SettingsStore`), for every
/// window: windows read them when they open and follow their changes (`observe`), whether a
/// window, the Preferences window or another program (`gsettings`, dconf Editor) made them.
///
/// GSettings is read and written on the main thread, as GTK's own settings are (dconf reads
/// a memory-mapped file and writes asynchronously). The settings file of earlier versions
/// is read on a worker, once, before anything waits on the settings (`whenLoaded`), then
/// removed. Without the schema (a bare binary copied elsewhere) the settings hold for the
/// run only, and the log says so.
@MainActor
final class Preferences {
    static let shared = Preferences()

    /// The settings now (the defaults until `start`).
    private(set) var settings = BrowserSettings()
    private var store: SettingsStore?
    private var isLoaded = false
    private var waiting: [(BrowserSettings) -> Void] = []
    private var observers: [Int: (_ old: BrowserSettings, _ new: BrowserSettings) -> Void] = [:]
    private var nextToken = 0
    /// Set while this process writes, so its own writes are not taken for another program's.
    private var writing = false

    /// Opens the settings (at the application's start-up, before any window) and reads the
    /// settings file of earlier versions into them if that was never done.
    func start() {
        guard store == nil, !isLoaded else { return }
        let directory = SettingsSchema.directory(executable: URL(fileURLWithPath: "/proc/self/exe"))
        guard let store = SettingsStore(schemaDirectory: directory) else {
            printError("the settings schema \(SettingsSchema.id) was not found: settings are not kept after this run")
            return loaded()
        }
        self.store = store
        settings = store.read()
        onSignal(store.settings, "changed", string: { [weak self] _ in self?.changedElsewhere() })
        guard !store.settingsFileMigrated else { return loaded() }
        let file = LegacySettingsFile()
        // Not a window's job: the settings are the process's, read once at start.
        Thread.detachNewThread {
            let entries = file.read()
            onMain { Preferences.shared.migrate(entries, from: file) }
        }
    }

    private func migrate(_ entries: [String: String]?, from file: LegacySettingsFile) {
        if let entries, let store {
            let migrated = settings.applyingSettingsFile(entries)
            write(migrated)
            store.settingsFileMigrated = true
            store.sync()
            // Removed only once GSettings holds what it held.
            // Not a window's job: the settings are the process's.
            Thread.detachNewThread {
                if !file.remove() { printError("could not remove the old settings file \(file.path)") }
            }
        } else {
            store?.settingsFileMigrated = true
        }
        loaded()
    }

    private func loaded() {
        isLoaded = true
        let bodies = waiting
        waiting.removeAll()
        for body in bodies { body(settings) }
    }

    /// Calls `body` with the settings, at once when loaded, else once they are.
    func whenLoaded(_ body: @escaping (BrowserSettings) -> Void) {
        if isLoaded { return body(settings) }
        waiting.append(body)
    }

    /// Changes the settings, stores them, and tells the observers.
    func update(_ change: (inout BrowserSettings) -> Void) {
        var new = settings
        change(&new)
        write(new)
    }

    private func write(_ new: BrowserSettings) {
        guard new != settings else { return }
        let old = settings
        settings = new
        writing = true
        store?.write(new)
        writing = false
        notify(old, new)
    }

    /// A key changed in GSettings: another program's change (or a reset), read back in.
    private func changedElsewhere() {
        guard !writing, let store else { return }
        let new = store.read()
        guard new != settings else { return }
        let old = settings
        settings = new
        notify(old, new)
    }

    private func notify(_ old: BrowserSettings, _ new: BrowserSettings) {
        for observer in observers.values { observer(old, new) }
    }

    /// Calls `observer` with the settings before and after each change, until the
    /// observation returned goes.
    func observe(_ observer: @escaping (_ old: BrowserSettings, _ new: BrowserSettings) -> Void) -> Observation {
        nextToken += 1
        let token = nextToken
        observers[token] = observer
        return Observation { [weak self] in self?.observers[token] = nil }
    }
}
