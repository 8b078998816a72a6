import CConfinement
import Foundation
import Glibc

/// What a decoder process does to itself before it reads a byte of any photo, whether or
/// not bubblewrap started it (`DecoderLaunch`): bubblewrap gives it an empty world; these
/// hold in every case, and are what holds where bubblewrap cannot run.
///
/// - Resource limits: an address-space limit (a decode that allocates past it fails or the
///   process dies, never the browser), no core dumps, few descriptors; a CPU-time limit is
///   set afresh before each request (`limitCPU(seconds:)`).
/// - No new privileges, not dumpable (no other process of the user may ptrace it).
/// - Landlock, where the kernel has it: files are readable only under the system's own
///   folders and the program's; nothing anywhere is writable, creatable or removable. The
///   photo comes as an open descriptor, which Landlock does not touch.
/// - A seccomp filter (libseccomp): no sockets but a pair of Unix ones joined to each other
///   (GStreamer's buses wake their readers through one, for videos), no network, no programs, no ptrace, no
///   namespaces or mounts, no io_uring (which would bypass the filter), and no opening of
///   files for writing.
enum DecoderConfinement {
    /// The folders (and files) a decoder may read: the system's libraries, loaders, MIME
    /// data and fonts, and the folders its own program and libraries were loaded from.
    static func readablePaths() -> [String] {
        var paths = ["/usr", "/etc/ld.so.cache", "/etc/fonts", "/etc/alternatives"]
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map { ($0 as NSString).deletingLastPathComponent }
        for directory in loadedLibraryFolders() + [program].compactMap({ $0 }) where !paths.contains(where: { directory.hasPrefix($0 + "/") || directory == $0 }) {
            paths.append(directory)
        }
        return paths
    }

    /// The folders of the shared libraries mapped into this process, outside /usr (the Swift
    /// runtime lives wherever the toolchain was unpacked). Other mapped files (font caches,
    /// dconf's) are the user's and stay out.
    static func loadedLibraryFolders() -> [String] {
        // Read to the end by hand: /proc files say they are empty, and a path in them need
        // not be UTF-8.
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return libraryFolders(inMaps: bytes)
    }

    /// The folders outside /usr of the shared libraries (`NAME.so`, `NAME.so.N`) a
    /// `/proc/PID/maps` names, each once, in the order met. Read as bytes: a window's maps
    /// run to thousands of lines, several for each library, and a decoder is started with
    /// them (as text, split into lines and paths, they took 18 ms of processor time a start).
    static func libraryFolders(inMaps maps: [UInt8]) -> [String] {
        let newline = UInt8(ascii: "\n"), slash = UInt8(ascii: "/")
        var folders: [String] = []
        var lastPath: UnsafeBufferPointer<UInt8>?
        maps.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = all[start...].firstIndex(of: newline) ?? all.count
                defer { start = end + 1 }
                guard let first = all[start..<end].firstIndex(of: slash) else { continue }
                let path = UnsafeBufferPointer(rebasing: all[first..<end])
                // A library's mappings follow one another: its path is looked at once.
                if let lastPath, lastPath.elementsEqual(path) { continue }
                lastPath = path
                guard let folder = libraryFolder(of: path) else { continue }
                let name = String(decoding: folder, as: UTF8.self)
                if !folders.contains(name) { folders.append(name) }
            }
        }
        return folders
    }

    /// The folder of the library at `path`, when it is one outside /usr and still there.
    private static func libraryFolder(of path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard !path.starts(with: "/usr/".utf8), !path.reversed().starts(with: " (deleted)".utf8.reversed()),
              let lastSlash = path.lastIndex(of: UInt8(ascii: "/")), lastSlash > 0 else { return nil }
        let name = UnsafeBufferPointer(rebasing: path[(lastSlash + 1)...])
        let so = Array(".so".utf8)
        let isLibrary = name.reversed().starts(with: so.reversed())
            || (0..<max(0, name.count - 3)).contains { name[$0..<($0 + 3)].elementsEqual(so) && name[$0 + 3] == UInt8(ascii: ".") }
        return isLibrary ? UnsafeBufferPointer(rebasing: path[..<lastSlash]) : nil
    }

    /// Applies every confinement it can, and says which held and which did not.
    static func apply(addressSpaceLimit: Int) -> (held: [String], missing: [String]) {
        var held: [String] = [], missing: [String] = []
        _ = cconf_prctl(PR_SET_NO_NEW_PRIVS, 1)
        _ = cconf_prctl(PR_SET_DUMPABLE, 0)

        var limits: [String] = []
        if setLimit(RLIMIT_CORE, 0) { limits.append("no core dumps") }
        // A batch of files to read dates from, the memfd of a reply, the standard streams,
        // the socket and what the libraries open.
        let descriptors = DecoderChannel.maxDescriptors + 64
        if setLimit(RLIMIT_NOFILE, descriptors) { limits.append("\(descriptors) descriptors") }
        if setLimit(RLIMIT_AS, addressSpaceLimit) {
            limits.append("\(addressSpaceLimit >> 20) MiB address space")
        } else {
            missing.append("address-space limit: \(String(cString: strerror(errno)))")
        }
        held.append("limits (\(limits.joined(separator: ", ")), CPU time per request)")

        // Readable paths are found before Landlock hides /proc.
        let readable = readablePaths()
        switch restrictFiles(readable: readable) {
        case .success(let abi): held.append("Landlock ABI \(abi): only system files readable, nothing writable")
        case .failure(let reason): missing.append("Landlock: \(reason.message)")
        }
        switch installSeccomp() {
        case .success: held.append("seccomp: no network, no programs, no writes")
        case .failure(let reason): missing.append("seccomp: \(reason.message)")
        }
        return (held, missing)
    }

    /// Sets the soft and hard limits of `resource`.
    private static func setLimit(_ resource: __rlimit_resource, _ value: Int) -> Bool {
        var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        return setrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0
    }

    /// Lets the next request use `seconds` of CPU time from now; past it the kernel ends the
    /// process (SIGXCPU). The hard limit stays open so the next request can be given its own.
    static func limitCPU(seconds: Int) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        var limit = rlimit(rlim_cur: rlim_t(used + seconds), rlim_max: rlim_t.max)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }

    struct Reason: Error { let message: String }

    // MARK: Landlock

    /// Filesystem rights by Landlock ABI version: 1 has the first 13; 2 adds REFER, 3
    /// TRUNCATE, 5 IOCTL_DEV.
    private static func handledRights(abi: Int) -> UInt64 {
        var rights: UInt64 = (1 << 13) - 1
        if abi >= 2 { rights |= 1 << 13 }
        if abi >= 3 { rights |= 1 << 14 }
        if abi >= 5 { rights |= 1 << 15 }
        return rights
    }

    private static let execute: UInt64 = 1 << 0, readFile: UInt64 = 1 << 2, readDirectory: UInt64 = 1 << 3

    private static func restrictFiles(readable: [String]) -> Result<Int, Reason> {
        let abi = Int(cconf_landlock_abi())
        guard abi >= 1 else { return .failure(Reason(message: "not available in this kernel (\(String(cString: strerror(errno))))")) }
        // struct landlock_ruleset_attr: handled_access_fs, then (ABI 4) handled_access_net.
        // Handling TCP bind and connect with no rule denies both.
        var attr: [UInt64] = [handledRights(abi: abi), abi >= 4 ? 0b11 : 0]
        let size = abi >= 4 ? 16 : 8
        let ruleset = attr.withUnsafeMutableBytes { cconf_landlock_create_ruleset($0.baseAddress, size) }
        guard ruleset >= 0 else { return .failure(Reason(message: "no ruleset (\(String(cString: strerror(errno))))")) }
        defer { close(ruleset) }
        for path in readable {
            let fd = open(path, cconf_O_PATH | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var status = stat()
            guard fstat(fd, &status) == 0 else { continue }
            let isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
            let rights = isDirectory ? execute | readFile | readDirectory : execute | readFile
            // struct landlock_path_beneath_attr is packed: u64 allowed_access, s32 parent_fd.
            var rule = [UInt8](repeating: 0, count: 12)
            withUnsafeBytes(of: rights.littleEndian) { rule.replaceSubrange(0..<8, with: $0) }
            withUnsafeBytes(of: fd.littleEndian) { rule.replaceSubrange(8..<12, with: $0) }
            guard rule.withUnsafeBytes({ cconf_landlock_add_path(ruleset, $0.baseAddress) }) == 0 else {
                return .failure(Reason(message: "rule for \(path) refused (\(String(cString: strerror(errno))))"))
            }
        }
        guard cconf_landlock_restrict_self(ruleset) == 0 else {
            return .failure(Reason(message: "not applied (\(String(cString: strerror(errno))))"))
        }
        return .success(abi)
    }

    // MARK: seccomp

    /// System calls a decoder never needs; each fails with EACCES.
    static let deniedCalls = [
        "socket", "connect", "bind", "listen", "accept", "accept4",
        "execve", "execveat", "ptrace", "process_vm_readv", "process_vm_writev",
        "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
        "io_uring_setup", "io_uring_enter", "io_uring_register",
        "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
        "name_to_handle_at", "open_by_handle_at", "openat2", "creat",
        "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
        "link", "linkat", "symlink", "symlinkat", "truncate", "chmod", "fchmodat", "chown", "fchownat", "lchown",
    ]

    private static func installSeccomp() -> Result<Void, Reason> {
        guard let filter = seccomp_init(cconf_SCMP_ACT_ALLOW) else { return .failure(Reason(message: "libseccomp could not start")) }
        defer { seccomp_release(filter) }
        let deny = cconf_scmp_act_errno(UInt16(EACCES))
        for name in deniedCalls {
            let call = seccomp_syscall_resolve_name(name)
            guard call != __NR_SCMP_ERROR else { continue }  // not a call on this architecture
            guard seccomp_rule_add_array(filter, deny, call, 0, nil) == 0 else {
                return .failure(Reason(message: "rule for \(name) refused"))
            }
        }
        // A socket pair only of Unix sockets, which reach nothing but each other: GStreamer
        // (1.22) makes one for each bus, to wake whoever waits on it.
        if case let call = seccomp_syscall_resolve_name("socketpair"), call != __NR_SCMP_ERROR {
            var comparison = scmp_arg_cmp(arg: 0, op: SCMP_CMP_NE, datum_a: scmp_datum_t(AF_UNIX), datum_b: 0)
            guard seccomp_rule_add_array(filter, deny, call, 1, &comparison) == 0 else {
                return .failure(Reason(message: "rule for socketpair refused"))
            }
        }
        // Opening for writing or creating: open(path, flags, …) and openat(dir, path, flags, …).
        for (name, argument) in [("open", UInt32(1)), ("openat", UInt32(2))] {
            let call = seccomp_syscall_resolve_name(name)
            guard call != __NR_SCMP_ERROR else { continue }
            for flag in [O_WRONLY, O_RDWR, O_CREAT, O_TRUNC] {
                var comparison = scmp_arg_cmp(arg: argument, op: SCMP_CMP_MASKED_EQ, datum_a: scmp_datum_t(flag), datum_b: scmp_datum_t(flag))
                guard seccomp_rule_add_array(filter, deny, call, 1, &comparison) == 0 else {
                    return .failure(Reason(message: "rule for \(name) refused"))
                }
            }
        }
        let loaded = seccomp_load(filter)
        guard loaded == 0 else { return .failure(Reason(message: "not loaded (\(String(cString: strerror(-loaded))))")) }
        return .success(())
    }
}
