/// The application's name and version, where code (not the build system) needs them:
/// the thumbnail cache's failure folder (`fail/gphotobrowse-VERSION`) and the `Software`
/// key of the thumbnails written. Keep `version` equal to the version in meson.build.
public enum AppInfo {
    public static let name = "gphotobrowse"
    public static let version = "0.1.0"
}
