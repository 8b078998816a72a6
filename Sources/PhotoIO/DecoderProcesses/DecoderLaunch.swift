import Foundation
import Glibc

/// How decoder processes are started: which program, and inside what.
public struct DecoderLaunch: Sendable {
    /// The decoder program (`gphotobrowse-decoder`).
    public var program: String
    /// bubblewrap, when it is to be used.
    public var bubblewrap: String?
    public var memoryLimit: Int
    public var cpuLimit: Int
    public var testModes: Bool

    public init(program: String, bubblewrap: String?, memoryLimit: Int = 3 << 30, cpuLimit: Int = 60, testModes: Bool = false) {
        self.program = program
        self.bubblewrap = bubblewrap
        self.memoryLimit = memoryLimit
        self.cpuLimit = cpuLimit
        self.testModes = testModes
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
        guard let bubblewrap else { return decoder }
        return [bubblewrap] + Self.sandboxArguments(program: program) + ["--"] + decoder
    }

    /// An empty world: its own namespaces (no network, no other processes), no environment,
    /// no capabilities, and read-only the system's folders and the folders the program and
    /// the libraries it needs live in. No home, no /tmp, nothing writable.
    static func sandboxArguments(program: String) -> [String] {
        var arguments = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                         "--clearenv", "--setenv", "SWIFT_BACKTRACE", "enable=no",
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
        var folders = [(program as NSString).deletingLastPathComponent]
        // This process links what the decoder links (and more): the Swift runtime's folder.
        for folder in DecoderConfinement.loadedLibraryFolders() where !folders.contains(folder) { folders.append(folder) }
        for folder in folders where !folder.hasPrefix("/usr/") && !folder.isEmpty {
            arguments += ["--ro-bind", folder, folder]
        }
        return arguments
    }
}
