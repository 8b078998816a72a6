import Glibc

/// GTK 4.8 on X11 makes a GL context as it opens the display, only to choose the visual of its
/// windows, and so loads the GL driver: with Mesa's software one (no GPU, as under Xvfb) about
/// 45 MiB of libLLVM mapped and 35 MiB of the driver's own memory, for the whole run. With the
/// cairo renderer asked for (`GSK_RENDERER=cairo`) GTK draws nothing with GL, and the media
/// stack plays videos into memory textures (it would otherwise decode into GL textures that
/// the cairo renderer downloads again): GTK starts then with GL left out
/// (`GDK_DEBUG=gl-disable`, added to what the person set), for the start-up only. The
/// environment is as it was again once GTK has started, for the programs opened from here.
@MainActor
enum CairoRendering {
    /// GDK_DEBUG as it was before `leaveGLOut` (nil: not set); unset when nothing was changed.
    private static var given: String??

    /// Before GTK starts, and before any other thread does (the environment is changed).
    static func leaveGLOut() {
        guard let renderer = getenv("GSK_RENDERER"), String(cString: renderer) == "cairo" else { return }
        let debug = getenv("GDK_DEBUG").map { String(cString: $0) }
        given = .some(debug)
        let flags = (debug ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty } + ["gl-disable"]
        setenv("GDK_DEBUG", flags.joined(separator: ","), 1)
    }

    /// Once GTK has started (the display is open): GDK_DEBUG as it was. Both are changes in
    /// place (no new environment array), which other threads reading it meanwhile survive.
    static func restoreEnvironment() {
        guard let given else { return }
        if let debug = given { setenv("GDK_DEBUG", debug, 1) } else { unsetenv("GDK_DEBUG") }
        Self.given = nil
    }
}
