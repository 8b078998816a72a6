import CGdkPixbuf
import Foundation
import PhotoCore

/// The browser's settings in GSettings (the schema `io.github.gphotobrowse.Gphotobrowse`, in
/// `data/`), read and written as `BrowserSettings`: what GSettings holds is brought into
/// the model's ranges when read, and only what changed is written.
///
/// Use it on one thread, the one that made it (the app's main thread, as GTK uses its own
/// settings): GSettings delivers its `changed` signal in that thread's main context. With
/// dconf, the desktop's backend, reads come from a memory-mapped database and writes go out
/// asynchronously over D-Bus.
public final class SettingsStore {
    /// The GSettings object (owned), whose `changed::KEY` signals say another program changed a key.
    public let settings: UnsafeMutablePointer<GSettings>

    /// Opens the app's schema from `directory` (a folder holding `gschemas.compiled`, see
    /// `SettingsSchema.directory`) and else from GLib's own search, on `backend` (nil: the
    /// desktop's). Nil when the schema is nowhere, or lacks a key this version keeps (an older
    /// version's installed): then the caller keeps nothing between runs.
    public init?(schemaDirectory directory: String?, backend: UnsafeMutablePointer<GSettingsBackend>? = nil) {
        guard let schema = Self.schema(in: directory) else { return nil }
        defer { g_settings_schema_unref(schema) }
        guard SettingsKey.allCases.allSatisfy({ g_settings_schema_has_key(schema, $0.rawValue) != 0 }) else { return nil }
        settings = g_settings_new_full(schema, backend, nil)
    }

    deinit { g_object_unref(settings) }

    private static func schema(in directory: String?) -> OpaquePointer? {
        let system = g_settings_schema_source_get_default()
        var source = system.map { g_settings_schema_source_ref($0) }
        if let directory {
            var error: UnsafeMutablePointer<GError>?
            if let own = g_settings_schema_source_new_from_directory(directory, system, 0, &error) {
                if let source { g_settings_schema_source_unref(source) }
                source = own
            } else {
                g_clear_error(&error)
            }
        }
        guard let source else { return nil }
        defer { g_settings_schema_source_unref(source) }
        return g_settings_schema_source_lookup(source, SettingsSchema.id, 1)
    }

    /// The settings as stored, each value brought into its range.
    public func read() -> BrowserSettings {
        let key = SortKey(settingsName: string(.sortBy)) ?? BrowserSettings().order.key
        let lastFolder = string(.lastFolder)
        return BrowserSettings(
            order: PhotoOrder(key: key, reversed: bool(.sortReversed)),
            tileSize: TileSize(edge: int(.tileSize)),
            window: WindowState(width: int(.windowWidth), height: int(.windowHeight), maximized: bool(.windowMaximized)),
            lastFolder: lastFolder.isEmpty ? nil : lastFolder,
            slideshowInterval: SlideshowInterval(seconds: int(.slideshowInterval)),
            slideshowEnding: SlideshowModel.Ending(rawValue: string(.slideshowEnding)) ?? .loop)
    }

    /// Stores `new`, writing only the keys whose values differ from what is stored.
    public func write(_ new: BrowserSettings) {
        let old = read()
        if new.order.key != old.order.key { set(.sortBy, new.order.key.settingsName) }
        if new.order.reversed != old.order.reversed { set(.sortReversed, new.order.reversed) }
        if new.tileSize != old.tileSize { set(.tileSize, new.tileSize.edge) }
        if new.window.width != old.window.width { set(.windowWidth, new.window.width) }
        if new.window.height != old.window.height { set(.windowHeight, new.window.height) }
        if new.window.maximized != old.window.maximized { set(.windowMaximized, new.window.maximized) }
        if new.lastFolder != old.lastFolder { set(.lastFolder, new.lastFolder ?? "") }
        if new.slideshowInterval != old.slideshowInterval { set(.slideshowInterval, new.slideshowInterval.seconds) }
        if new.slideshowEnding != old.slideshowEnding { set(.slideshowEnding, new.slideshowEnding.rawValue) }
    }

    /// Whether the settings file of earlier versions was read into these settings.
    public var settingsFileMigrated: Bool {
        get { bool(.settingsFileMigrated) }
        set { if newValue != settingsFileMigrated { set(.settingsFileMigrated, newValue) } }
    }

    /// Writes what is still waiting to go to the backend (dconf writes asynchronously).
    public func sync() { g_settings_sync() }

    // MARK: Keys

    private func string(_ key: SettingsKey) -> String {
        guard let value = g_settings_get_string(settings, key.rawValue) else { return "" }
        defer { g_free(value) }
        return String(cString: value)
    }

    private func int(_ key: SettingsKey) -> Int { Int(g_settings_get_int(settings, key.rawValue)) }
    private func bool(_ key: SettingsKey) -> Bool { g_settings_get_boolean(settings, key.rawValue) != 0 }

    private func set(_ key: SettingsKey, _ value: String) { g_settings_set_string(settings, key.rawValue, value) }
    private func set(_ key: SettingsKey, _ value: Int) { g_settings_set_int(settings, key.rawValue, Int32(clamping: value)) }
    private func set(_ key: SettingsKey, _ value: Bool) { g_settings_set_boolean(settings, key.rawValue, value ? 1 : 0) }
}
