import CGtk
import Foundation
import PhotoCore

/// The program that ran `gphotobrowse …`: this process, or another one whose command line
/// GApplication handed to this running instance (GApplicationCommandLine). It waits, and
/// gets what is written for it and its exit status, until `finish`.
@MainActor
final class CommandLineCaller {
    private let commandLine: OwnedObject<UnsafeMutablePointer<GApplicationCommandLine>>
    private var finished = false

    init(_ commandLine: OpaquePointer) {
        self.commandLine = OwnedObject(sharing: commandLine.cast())
    }

    /// Whether the caller is another process.
    var isRemote: Bool { g_application_command_line_get_is_remote(commandLine.pointer) != 0 }

    /// The arguments after the program's name, as given.
    var arguments: [String] {
        var count: Int32 = 0
        guard let argv = g_application_command_line_get_arguments(commandLine.pointer, &count) else { return [] }
        defer { g_strfreev(argv) }
        return (1..<max(1, Int(count))).compactMap { argv[$0].map { String(cString: $0) } }
    }

    /// The URI an operand names, relative to the caller's current folder (a path, or a URI).
    func uri(of argument: String) -> String {
        guard let file = g_application_command_line_create_file_for_arg(commandLine.pointer, argument) else { return argument }
        defer { file.unref() }
        return g_file_get_uri(file).map { uri in
            defer { g_free(uri) }
            return String(cString: uri)
        } ?? argument
    }

    /// Writes `bytes` to the caller's standard output.
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if isRemote {
            // Text over D-Bus, turned back into these bytes by the caller's print handler.
            cgtk_command_line_print(commandLine.pointer, PickedOutput.printable(bytes))
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }

    /// Writes a line to the caller's standard error.
    func writeError(_ message: String) {
        if isRemote { cgtk_command_line_printerr(commandLine.pointer, message + "\n") } else { printError(message) }
    }

    /// The caller exits with `status` (another process at once; this one when its windows
    /// close, `Application.exitStatus`).
    func finish(_ status: Int32) {
        guard !finished else { return }
        finished = true
        g_application_command_line_set_exit_status(commandLine.pointer, status)
        onFinish(status)
    }

    var onFinish: (Int32) -> Void = { _ in }
}

/// The print handler of a process whose command line a running instance took over: the
/// photos chosen come back as marked text (`PickedOutput.printable`), written out here as
/// the bytes they stand for; any other text as it is.
enum PickedPrintHandler {
    nonisolated static func install() {
        g_set_print_handler { text in
            guard let text else { return }
            let string = String(cString: text)
            let bytes = PickedOutput.decodedPrint(string) ?? Array(string.utf8)
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}
