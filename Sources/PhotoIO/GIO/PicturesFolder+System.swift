import CGdkPixbuf
import Foundation
import PhotoCore

/// The Pictures folder of the person running the app, from GLib's reading of
/// `user-dirs.dirs` and the home folder (`PicturesFolder` decides).
extension PicturesFolder {
    /// The Pictures folder's candidates as file URIs, for opening: the first that is a
    /// folder opens.
    public static func candidateURIs() -> [String] {
        candidateURIs(configured: configured(), home: home())
    }

    /// The folder (a path) to save in. Blocking (a stat a candidate): call it on a worker.
    public static func forSaving() -> String {
        forSaving(configured: configured(), home: home()) { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    private static func configured() -> String? {
        g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) }
    }

    private static func home() -> String {
        String(cString: g_get_home_dir())
    }
}
