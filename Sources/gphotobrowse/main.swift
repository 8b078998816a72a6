import CGtk
import Foundation

// gphotobrowse [FOLDER | FILE…]: a photo browser. See README.md.
MainLoop.attachDispatchMainQueue()
let status = MainActor.assumeIsolated {
    Application().run(arguments: CommandLine.arguments)
}
exit(status)
