import CGtk
import Foundation
import PhotoCore

// gphotobrowse [FOLDER | FILE…]: a photo browser. See README.md.
Localization.start(catalogs: Localization.catalogDirectory(executable: URL(fileURLWithPath: "/proc/self/exe")))
MainLoop.attachDispatchMainQueue()
let status = MainActor.assumeIsolated {
    Application().run(arguments: CommandLine.arguments)
}
exit(status)
