import Foundation

/// Where the app's compiled GSettings schema is: the app reads its settings only through it.
///
/// Run from a build tree, the schema compiled beside the program is the one that matches it:
/// `schemas/` beside the executable (where `build-aux/run.sh` compiles it for SwiftPM's
/// build), `data/` (meson's build tree), then `../share/glib-2.0/schemas` (installed). None
/// of them: GLib's own search (`GSETTINGS_SCHEMA_DIR`, then `XDG_DATA_DIRS`).
public enum SettingsSchema {
    /// The schema's id, the application's id.
    public static let id = "io.github.gphotobrowse.Gphotobrowse"

    /// The folder beside `executable` whose `gschemas.compiled` to read first, if there is one.
    public static func directory(executable: URL, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        let folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent("schemas"),
            folder.appendingPathComponent("data"),
            folder.deletingLastPathComponent().appendingPathComponent("share/glib-2.0/schemas"),
        ]
        return candidates.first { fileExists($0.appendingPathComponent("gschemas.compiled").path) }?.path
    }
}
