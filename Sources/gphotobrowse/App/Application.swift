import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The AdwApplication: opens a window per launch on the folder or files given, or on the
/// Pictures folder, and remembers whether the command line asked for something that could
/// not be opened, for the exit status.
@MainActor
final class Application {
    static let id = "io.github.gphotobrowse.Gphotobrowse"

    let application: OpaquePointer
    private var windows: [BrowserWindow] = []
    /// Non-zero when what the command line named could not be opened.
    private(set) var exitStatus: Int32 = 0

    init() {
        // AdwApplication sets libadwaita up at startup: its style sheet, and the style manager
        // that follows the desktop's dark preference.
        // One instance per session: a later `gphotobrowse …` hands its command line to the
        // running one (GApplicationCommandLine), which opens a window for it and answers it.
        application = adw_application_new(Self.id, GApplicationFlags(G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_HANDLES_COMMAND_LINE.rawValue)).cast()
        g_set_application_name(tr("Photo Browser"))
        onSignal(application, "startup") { [weak self] in self?.startup() }
        onSignal(application, "activate") { [weak self] in self?.openDefault() }
        onCommandLine(application) { [weak self] line in self?.handle(CommandLineCaller(line)) ?? 1 }
        onOpen(application) { [weak self] files in
            let uris = files.compactMap { file -> String? in
                g_file_get_uri(file).map { p in defer { g_free(p) }; return String(cString: p) }
            }
            self?.newWindow().opening.open(uris: uris, fromCommandLine: true)
        }
    }

    /// Runs the main loop; returns the process's exit status.
    func run(arguments: [String]) -> Int32 {
        var cArguments = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        let status = g_application_run(application.cast(), Int32(cArguments.count), &cArguments)
        return status != 0 ? status : exitStatus
    }

    private func startup() {
        // GTK has started: the programs opened from here get the environment as it was.
        CairoRendering.restoreEnvironment()
        // Before any window: windows open at the size remembered, folders in its order.
        Preferences.shared.start()
        Style.install()
        LiveObjects.traceOnSignal()
        ShownTrace.install()
        YourAlbums.shared.start()
        addAction(application, "quit") { [weak self] in self?.quit() }
        addAction(application, "about") { [weak self] in
            guard let self else { return }
            AboutWindow.present(over: gtk_application_get_active_window(self.application.cast()))
        }
        addAction(application, "shortcuts") { [weak self] in
            guard let self else { return }
            ShortcutsWindow.present(over: gtk_application_get_active_window(self.application.cast()))
        }
        setAccelerators("app.shortcuts", ["<Control>question"])
        addAction(application, "preferences") { [weak self] in
            guard let self else { return }
            PreferencesWindow.present(over: gtk_application_get_active_window(self.application.cast()))
        }
        setAccelerators("app.preferences", ["<Control>comma"])
        setAccelerators("win.larger-tiles", ["<Control>plus", "<Control>equal", "<Control>KP_Add"])
        setAccelerators("win.smaller-tiles", ["<Control>minus", "<Control>KP_Subtract"])
        setAccelerators("app.quit", ["<Control>q"])
        setAccelerators("win.open", ["<Control>o"])
        setAccelerators("win.open-location", ["<Control>l"])
        setAccelerators("window.close", ["<Control>w"])
        setAccelerators("win.back", [])
        setAccelerators("win.trash", ["Delete", "KP_Delete"])
        setAccelerators("win.delete-permanently", ["<Shift>Delete", "<Shift>KP_Delete"])
        setAccelerators("win.undo", ["<Control>z"])
        setAccelerators("win.rename", ["F2"])
        setAccelerators("win.save-rotation", ["<Control>s"])
        setAccelerators("win.export", ["<Control>e"])
        setAccelerators("win.add-to-album", ["<Control>d"])
        setAccelerators("win.slideshow", ["F5"])
        setAccelerators("win.print", ["<Control>p"])
        setAccelerators("win.set-background", ["<Control>F8"])
        setAccelerators("win.mark-up", ["<Control>m"])
        for stars in 0...5 { setAccelerators("win.rate-\(stars)", ["<Control>\(stars)", "<Control>KP_\(stars)"]) }
        setAccelerators("win.favourite", ["<Control>period"])
        setAccelerators("win.search", ["<Control>f"])
        setAccelerators("win.tag", ["<Control>t"])
        // The drawing board's.
        setAccelerators("win.redo", ["<Control><Shift>z", "<Control>y"])
        setAccelerators("win.save", ["<Control>s"])
        setAccelerators("win.save-as", ["<Control><Shift>s"])
        setAccelerators("win.copy-image", ["<Control>c"])
        setAccelerators("win.paste-photo", ["<Control>v"])
        setAccelerators("win.clear", ["<Control>Delete"])
        setAccelerators("win.next-album", ["<Control>Page_Down"])
        setAccelerators("win.previous-album", ["<Control>Page_Up"])
        for n in 1...9 { setAccelerators("win.album-\(n)", ["<Alt>\(n)"]) }
    }

    private func setAccelerators(_ action: String, _ accelerators: [String]) {
        var strings = accelerators.map { UnsafePointer(strdup($0)) } + [nil]
        defer { strings.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        gtk_application_set_accels_for_action(application.cast(), action, &strings)
    }

    /// No arguments: the Pictures folder (XDG's, else ~/Pictures: `PicturesFolder`) when it
    /// exists, else the welcome page.
    private func openDefault() {
        newWindow().opening.openFirstFolder(PicturesFolder.candidateURIs())
    }

    /// Starts walking the folder this launch will open (the one the command line names, the
    /// folder of the file it names, or Pictures) on a worker thread, beside GTK's start-up:
    /// by the time the window opens the folder (`FolderSource` claims the walk), much of a
    /// big tree has been read. With options, GApplication decides, and the window walks.
    nonisolated static func prestartWalk(arguments: [String]) {
        let operands = arguments.dropFirst()
        guard !operands.contains(where: { $0.hasPrefix("-") }) else { return }
        let candidates: [String]
        if let first = operands.first {
            guard let file = g_file_new_for_commandline_arg(first) else { return }
            defer { file.unref() }
            guard let uri = g_file_get_uri(file) else { return }
            defer { g_free(uri) }
            candidates = [String(cString: uri)]
        } else {
            candidates = PicturesFolder.candidateURIs()
        }
        let filesToo = !operands.isEmpty
        // No window's job: it runs before any window is there, and the walk it starts is
        // claimed by the window that opens the folder (or stopped unclaimed, `TreeWalkRun`).
        Thread.detachNewThread {
            let launch = CancellationFlag()
            for uri in candidates {
                switch Location.resolve(uri: uri, cancellation: launch) {
                case .folder(let folder, _):
                    return TreeWalkRun.prestart(uri: folder, skippedFile: FolderSource.traceSkippedFile)
                case .file(_, let folder, _) where filesToo:
                    return TreeWalkRun.prestart(uri: folder, skippedFile: FolderSource.traceSkippedFile)
                default:
                    continue
                }
            }
        }
    }

    /// A command line, this process's or another's: a window on what it names (the Pictures
    /// folder when it names nothing), or a picking window for `--pick`. The status returned
    /// is the caller's exit status, unless it is answered later (picking).
    private func handle(_ caller: CommandLineCaller) -> Int32 {
        let arguments = caller.arguments
        let picking: PickOptions?
        do {
            picking = try PickOptions.parse(arguments)
        } catch {
            caller.writeError(error.message)
            return 2
        }
        if let picking { return pick(picking, for: caller) }
        let drawing: DrawOptions?
        do {
            drawing = try DrawOptions.parse(arguments)
        } catch {
            caller.writeError(error.message)
            return 2
        }
        if let drawing {
            BoardWindow.open(photo: drawing.photo.map(caller.uri(of:)), blank: drawing.size, application: application)
            return 0
        }
        if let option = arguments.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            caller.writeError(tr("Unknown option %s.", option))
            return 2
        }
        let uris = arguments.map(caller.uri(of:))
        if uris.isEmpty { openDefault() } else { newWindow().opening.open(uris: uris, fromCommandLine: !caller.isRemote) }
        return 0
    }

    /// A picking window on the folder or address asked for (Pictures when none), which
    /// answers the caller when the person chooses or cancels.
    private func pick(_ options: PickOptions, for caller: CommandLineCaller) -> Int32 {
        let location = options.location.map(caller.uri(of:)) ?? PicturesFolder.candidateURIs().first ?? "file:///"
        let session = PickSession(options: options, caller: caller, location: location)
        if !caller.isRemote { caller.onFinish = { [weak self] status in self?.exitStatus = status } }
        let window = newWindow(picking: session)
        session.onDone = { [weak window] in window.map { gtk_window_destroy($0.window) } }
        window.opening.open(uris: [location], fromCommandLine: true)
        return 0
    }

    private func newWindow(picking: PickSession? = nil) -> BrowserWindow {
        let window = BrowserWindow(application: application, picking: picking)
        window.onOpenFailed = { [weak self, weak picking] message in
            if let picking { picking.fail(message) } else { self?.exitStatus = 1 }
        }
        window.onClosed = { [weak self, weak window] in self?.windows.removeAll { $0 === window } }
        windows.append(window)
        window.present()
        return window
    }

    /// Ctrl+Q: every window closes, as if its close button was clicked (a drawing board with
    /// marks not saved asks first).
    private func quit() {
        var node = gtk_application_get_windows(application.cast())
        var all: [UnsafeMutablePointer<GtkWindow>] = []
        while let current = node {
            if let window = current.pointee.data { all.append(window.assumingMemoryBound(to: GtkWindow.self)) }
            node = current.pointee.next
        }
        for window in all { gtk_window_close(window) }
    }
}
