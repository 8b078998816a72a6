import CGtk
import Foundation
import PhotoCore
import PhotoIO

// gphotobrowse [FOLDER | FILE… | URL], or --pick […]: a photo browser. See README.md.
// Blocks of 128 KiB or more (a large folder's arrays, thumbnails) get mappings of their
// own, returned to the system when freed. By default glibc raises that threshold each time
// such a block is freed, up to 32 MiB, and then carves the folder's arrays, made anew at
// every merge of a listing, out of its heaps, which keep the memory once they are freed:
// with 100,000 photos the window peaked 30 to 40 MiB higher.
mallopt(M_MMAP_THRESHOLD, 128 * 1024)
// With the cairo renderer asked for, GTK starts without loading the GL driver it would not
// draw with (see CairoRendering): set now, before any thread runs.
MainActor.assumeIsolated { CairoRendering.leaveGLOut() }
// GLib writes info and debug lines (G_MESSAGES_DEBUG) to stdout unless told: standard
// output is for what `--pick` answers, so every log line goes to stderr.
g_log_writer_default_set_use_stderr(1)
Localization.start(catalogs: Localization.catalogDirectory(executable: URL(fileURLWithPath: "/proc/self/exe")))
// --help and --version are answered here, on standard output, before anything starts and
// whether or not an instance runs (GApplication would hand them to it, or refuse them).
if let asked = CommandLineInfo.asked(in: Array(CommandLine.arguments.dropFirst())) {
    FileHandle.standardOutput.write(Data(asked.text.utf8))
    exit(0)
}
// An invocation that hands its command line to the instance already running starts nothing.
// The first one starts its decoder processes now, beside GTK's own start-up: each takes tens
// of milliseconds (bubblewrap), and a folder's first thumbnails want them a few hundred
// milliseconds from now. Unused, they end after 20 s.
if !RunningInstance.exists(id: Application.id) {
    // Every window says so while none starts (nothing is decoded in the browser instead).
    MainActor.assumeIsolated { DecodingBanner.follow(IsolatedDecoder.shared) }
    IsolatedDecoder.shared.prestart()
    // So does the walk of the folder to open: a tree of thousands of photos is mostly read by
    // the time the window asks for it.
    Application.prestartWalk(arguments: CommandLine.arguments)
}
// Choosing photos while another instance runs: it sends them back as text to print here.
if CommandLine.arguments.contains("--pick") { PickedPrintHandler.install() }
MainLoop.attachDispatchMainQueue()
MainActor.assumeIsolated { MainLoop.startHeartbeat() }
let status = MainActor.assumeIsolated {
    Application().run(arguments: CommandLine.arguments)
}
exit(status)
