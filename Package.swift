// swift-tools-version:6.0
//
// gphotobrowse: a photo browser for the Linux desktop on GTK 4.
//
// The package has no dependencies beyond the toolchain: GTK 4, libadwaita, gdk-pixbuf, cairo, Pango, libsoup and
// libportal come from the system through pkg-config (see the README for the Debian packages).
import PackageDescription

let package = Package(
    name: "gphotobrowse",
    products: [
        .executable(name: "gphotobrowse", targets: ["gphotobrowse"]),
        .executable(name: "gphotobrowse-decoder", targets: ["gphotobrowse-decoder"]),
        .executable(name: "gphotobrowse-bench", targets: ["gphotobrowse-bench"]),
    ],
    targets: [
        // GTK 4 and libadwaita for the app: declarations and prefixed inline helpers for C
        // macros, no logic.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]
        ),
        // gdk-pixbuf and GIO for decoding and listing, without GTK.
        .systemLibrary(
            name: "CGdkPixbuf",
            pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
        ),
        // libexif for the date a photo was taken.
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        // cairo, and Pango through pangocairo (text in any script), for the drawing board's
        // renderer.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // The kernel's confinement calls (Landlock, memfd seals) and libseccomp, for the
        // decoder processes.
        .systemLibrary(
            name: "CConfinement",
            pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]
        ),
        // libsoup 3 for photos published over HTTP(S) (PhotoIO's `Web/`).
        .systemLibrary(
            name: "CSoup",
            pkgConfig: "libsoup-3.0",
            providers: [.apt(["libsoup-3.0-dev"])]
        ),
        // json-glib and libxml2's HTML parser, for web albums' photo lists (read in the
        // decoder processes).
        .systemLibrary(
            name: "CJson",
            pkgConfig: "json-glib-1.0",
            providers: [.apt(["libjson-glib-dev"])]
        ),
        .systemLibrary(
            name: "CXml",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Formats gdk-pixbuf does not read, or reads short, decoded in the decoder processes:
        // LibRaw for cameras' RAW files, libheif for HEIC and AVIF, libjxl for JPEG XL, and
        // Little CMS for colour profiles (each behind a small wrapper of PhotoIO's). LibRaw,
        // libheif and libjxl (and libtiff below) are headers only here, no pkg-config, which
        // would link them: PhotoIO's `FormatLibraries` loads each the first time a file needs
        // it, so that a process decoding JPEGs never loads them (meson checks their versions).
        // Their C modules declare each as a table of functions, with the macros of
        // `CLibraryTable`, a header of no library.
        .systemLibrary(name: "CLibraryTable"),
        .systemLibrary(name: "CRaw", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CHeif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJxl", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(name: "CLcms", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // GStreamer for videos' frames, lengths and dates in the decoder processes (appsink
        // takes the frame); the viewer plays them with GTK's own media stack.
        .systemLibrary(name: "CGst", pkgConfig: "gstreamer-app-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // libjpeg-turbo for a JPEG's region decoded alone (the viewer's tiles of a large photo).
        .systemLibrary(name: "CJpeg", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // libpng and libtiff for a large PNG's or TIFF's region read a row, strip or tile at a time.
        .systemLibrary(name: "CPng", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTiff", providers: [.apt(["libtiff-dev"])]),
        // SQLite for the photo index: marks, cameras and dates kept between runs.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libportal for the desktop portal's calls (Set as Background), with the window as
        // their parent (libportal-gtk4).
        .systemLibrary(
            name: "CPortal",
            pkgConfig: "libportal-gtk4",
            providers: [.apt(["libportal-dev", "libportal-gtk4-dev"])]
        ),
        // gettext and setlocale from the C library, for translations.
        .systemLibrary(name: "CIntl"),
        // The model: photo list, sort orders, decode scheduling, translations. Imports no GTK
        // and no GLib.
        .target(name: "PhotoCore", dependencies: ["CIntl"]),
        // Swift values handed to C callbacks as user data, and back: the one place that
        // boxes them (used with GLib by the app and by PhotoIO). Pure Swift.
        .target(name: "Bridge"),
        // Files and pixels: folder listing with GIO, decoding with gdk-pixbuf (in decoder
        // processes, `IsolatedDecoder`), downloads with libsoup into a disk cache, the drawing
        // board's rendering (cairo, Pango) and saving. No GTK.
        .target(name: "PhotoIO", dependencies: ["PhotoCore", "Bridge", "CGdkPixbuf", "CExif", "CConfinement", "CSoup", "CJson", "CXml", "CCairo", "CLibraryTable", "CRaw", "CHeif", "CJxl", "CLcms", "CJpeg", "CPng", "CTiff", "CGst", "CSQLite"]),
        // The decoder process: decodes one file descriptor at a time for the browser,
        // confined (see `DecoderService`).
        .executableTarget(name: "gphotobrowse-decoder", dependencies: ["PhotoIO"]),
        // The application: windows, the thumbnail grid and the viewer.
        .executableTarget(name: "gphotobrowse", dependencies: ["PhotoCore", "PhotoIO", "Bridge", "CGtk", "CPortal"]),
        // Benchmarks, side by side with the tools a person would otherwise run.
        .executableTarget(name: "gphotobrowse-bench", dependencies: ["PhotoCore", "PhotoIO", "CGdkPixbuf", "CExif"]),
        .testTarget(name: "PhotoCoreTests", dependencies: ["PhotoCore"]),
        .testTarget(name: "PhotoIOTests", dependencies: ["PhotoIO", "PhotoCore", "CCairo", "CExif"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
