import Foundation
import Glibc
import PhotoCore

/// How decoder processes are started: which program, and inside what.
public struct DecoderLaunch: Sendable {
    /// The decoder program (`gphotobrowse-decoder`).
    public var program: String
    /// bubblewrap, when it is to be used.
    public var bubblewrap: String?
    public var memoryLimit: Int
    public var cpuLimit: Int
    public var testModes: Bool
    /// The environment variables that say the language to write failures in (`language()`):
    /// the only ones a decoder process gets besides its own.
    public var language: [String: String]

    public init(program: String, bubblewrap: String?, memoryLimit: Int = 3 << 30, cpuLimit: Int = 60, testModes: Bool = false,
                language: [String: String] = [:]) {
        self.program = program
        self.bubblewrap = bubblewrap
        self.memoryLimit = memoryLimit
        self.cpuLimit = cpuLimit
        self.testModes = testModes
        self.language = language
    }

    /// This process's language settings (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and
    /// where its translations are (`GPHOTOBROWSE_LOCALEDIR`), for decoder processes: the
    /// reasons they give for a file they cannot show reach the person as they wrote them.
    public static func language(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var language = environment.filter { ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].contains($0.key) }
        if let catalogs = Localization.catalogDirectory(executable: URL(fileURLWithPath: "/proc/self/exe"), environment: environment) {
            language[Localization.catalogVariable] = catalogs
        }
        return language
    }

    /// The environment a decoder process starts with: quiet crashes, and the language.
    var environment: [String] {
        [Self.quietCrashes] + language.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// The decoder program next to this process's executable (a build tree, or a test
    /// bundle), else in `../libexec` (an installed app), else nil.
    public static func findProgram() -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let folder = (executable as NSString).deletingLastPathComponent
        for candidate in [folder + "/gphotobrowse-decoder", (folder as NSString).deletingLastPathComponent + "/libexec/gphotobrowse-decoder"]
        where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// bubblewrap's path when it is installed.
    public static func findBubblewrap() -> String? {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where access(folder + "/bwrap", X_OK) == 0 {
            return folder + "/bwrap"
        }
        return nil
    }

    static let quietCrashes = "SWIFT_BACKTRACE=enable=no"

    /// The command line: the decoder's arguments, inside bubblewrap when there is one.
    var arguments: [String] {
        var decoder = [program, "--fd", "3", "--memory-limit", String(memoryLimit), "--cpu-limit", String(cpuLimit)]
        if testModes { decoder.append("--test-modes") }
        return confined(decoder)
    }

    /// The command line of a program that exits as soon as it runs, in the decoders' sandbox:
    /// it says whether bubblewrap can make that sandbox here. Inside it runs bubblewrap's own
    /// `--version` (its output discarded), which loads next to nothing, where the decoder
    /// program would load every library it links (17 ms of CPU time) only to exit; without
    /// bubblewrap, the decoder program, asked to exit (`--probe`).
    var probeArguments: [String] {
        guard let bubblewrap else { return [program, "--probe"] }
        return confined([bubblewrap, "--version"])
    }

    /// `decoder` inside bubblewrap when there is one.
    private func confined(_ decoder: [String]) -> [String] {
        guard let bubblewrap else { return decoder }
        var sandbox = Self.sandboxArguments(program: program)
        for (name, value) in language.sorted(by: { $0.key < $1.key }) { sandbox += ["--setenv", name, value] }
        // The translations, read once before the process confines itself.
        if let catalogs = language[Localization.catalogVariable] { sandbox += ["--ro-bind-try", catalogs, catalogs] }
        return [bubblewrap] + sandbox + ["--"] + decoder
    }

    /// An empty world: its own namespaces (no network, no other processes), no environment,
    /// no capabilities, and read-only the system's folders and the folders the program and
    /// the libraries it needs live in. No home, no /tmp, nothing writable.
    static func sandboxArguments(program: String) -> [String] {
        var arguments = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                         "--clearenv", "--setenv", "SWIFT_BACKTRACE", "enable=no",
                         // A home that is not there: without one GLib looks the user up in a
                         // user database the sandbox does not have, and warns on stderr.
                         "--setenv", "HOME", "/nonexistent",
                         "--ro-bind", "/usr", "/usr", "--dev", "/dev", "--proc", "/proc", "--chdir", "/"]
        // Merged /usr (Debian 12) links /lib and friends into it; older layouts have folders.
        for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: top) {
                arguments += ["--symlink", target, top]
            } else if FileManager.default.fileExists(atPath: top) {
                arguments += ["--ro-bind", top, top]
            }
        }
        arguments += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--ro-bind-try", "/etc/fonts", "/etc/fonts"]
        // Debian's alternatives: some libraries are links through it (FFmpeg's libblas.so.3).
        arguments += ["--ro-bind-try", "/etc/alternatives", "/etc/alternatives"]
        var folders = [(program as NSString).deletingLastPathComponent]
        // This process links what the decoder links (and more): the Swift runtime's folder.
        for folder in DecoderConfinement.loadedLibraryFolders() where !folders.contains(folder) { folders.append(folder) }
        for folder in folders where !folder.hasPrefix("/usr/") && !folder.isEmpty {
            arguments += ["--ro-bind", folder, folder]
        }
        return arguments
    }
}
