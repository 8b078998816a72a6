import CGtk
import Foundation
import PhotoCore
import PhotoIO

// gphotobrowse [FOLDER | FILE…]: a photo browser. See README.md.
Localization.start(catalogs: Localization.catalogDirectory(executable: URL(fileURLWithPath: "/proc/self/exe")))
// Decoder processes start now, beside GTK's own start-up: each takes tens of milliseconds
// (bubblewrap), and a folder's first thumbnails want them a few hundred milliseconds from now.
// Unused, they end after 20 s.
IsolatedDecoder.shared.prestart()
MainLoop.attachDispatchMainQueue()
let status = MainActor.assumeIsolated {
    Application().run(arguments: CommandLine.arguments)
}
exit(status)
