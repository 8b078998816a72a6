import CGdkPixbuf
import Foundation
import PhotoCore

/// The settings file: a GKeyFile at `$XDG_CONFIG_HOME/gphotobrowse/settings.ini`.
///
/// Reading and writing are file I/O: call them on a worker thread. Writing goes through
/// `g_key_file_save_to_file`, which writes a temporary file and renames it over the old one,
/// so a crash never leaves half a file.
public struct SettingsFile: Sendable {
    public let path: String
    private static let group = "browser"

    public init(path: String = SettingsFile.defaultPath) {
        self.path = path
    }

    public static var defaultPath: String {
        String(cString: g_get_user_config_dir()) + "/gphotobrowse/settings.ini"
    }

    /// The stored settings, or the defaults when there are none or the file is unreadable.
    public func load() -> BrowserSettings {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0 else { return BrowserSettings() }
        var entries: [String: String] = [:]
        for key in BrowserSettings().entries.keys {
            if let value = g_key_file_get_string(file, Self.group, key, nil) {
                entries[key] = String(cString: value)
                g_free(value)
            }
        }
        return BrowserSettings(entries: entries)
    }

    /// Stores `settings`, keeping anything else the file holds. Returns false on failure.
    @discardableResult
    public func save(_ settings: BrowserSettings) -> Bool {
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        _ = g_key_file_load_from_file(file, path, G_KEY_FILE_KEEP_COMMENTS, nil)
        for (key, value) in settings.entries.sorted(by: { $0.key < $1.key }) {
            g_key_file_set_string(file, Self.group, key, value)
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard g_mkdir_with_parents(folder, 0o700) == 0 else { return false }
        return g_key_file_save_to_file(file, path, nil) != 0
    }
}
