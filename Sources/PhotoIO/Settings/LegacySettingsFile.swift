import CGdkPixbuf
import Foundation
import PhotoCore

/// The settings file of earlier versions, a GKeyFile at `$XDG_CONFIG_HOME/gphotobrowse/settings.ini`:
/// read once into GSettings (`SettingsStore`), then removed.
///
/// Reading and removing are file I/O: call them on a worker thread.
public struct LegacySettingsFile: Sendable {
    public let path: String
    private static let group = "browser"

    public init(path: String = LegacySettingsFile.defaultPath) {
        self.path = path
    }

    public static var defaultPath: String {
        String(cString: g_get_user_config_dir()) + "/gphotobrowse/settings.ini"
    }

    /// The entries of its `[browser]` group (those `BrowserSettings.settingsFileKeys` names);
    /// nil when there is no file. A file that cannot be read as a key file gives no entries.
    public func read() -> [String: String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0 else { return [:] }
        var entries: [String: String] = [:]
        for key in BrowserSettings.settingsFileKeys {
            if let value = g_key_file_get_string(file, Self.group, key, nil) {
                entries[key] = String(cString: value)
                g_free(value)
            }
        }
        return entries
    }

    /// Removes the file, and its folder if nothing else is in it. Returns whether the file is gone.
    @discardableResult
    public func remove() -> Bool {
        guard unlink(path) == 0 || errno == ENOENT else { return false }
        rmdir((path as NSString).deletingLastPathComponent)  // fails, as it should, when not empty
        return true
    }
}
