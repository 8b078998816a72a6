import Foundation
import Glibc
import PhotoCore

/// One decoder process, seen from the browser: started, handed one request at a time, and
/// ended (killed) when it misbehaves or is no longer needed. Used by one thread at a time.
final class DecoderProcess: @unchecked Sendable {
    let pid: pid_t
    let channel: DecoderChannel
    let ready: DecoderReady
    let bubblewrapped: Bool
    /// When the process last answered (or started): idle processes are ended by it.
    var lastUsed = Date()
    private var nextID: UInt64 = 1

    private init(pid: pid_t, channel: DecoderChannel, ready: DecoderReady, bubblewrapped: Bool) {
        self.pid = pid
        self.channel = channel
        self.ready = ready
        self.bubblewrapped = bubblewrapped
    }

    /// Starts a decoder and waits (up to `startTimeout` ms) for it to say it is ready.
    static func start(_ launch: DecoderLaunch, startTimeout: Int32 = 10_000) -> Result<DecoderProcess, DecoderBreakdown> {
        guard let (ours, theirs) = DecoderChannel.pair() else {
            return .failure(.couldNotStart("no socket: \(String(cString: strerror(errno)))"))
        }
        let arguments = launch.arguments, environment = launch.environment
        let socket = theirs.fd
        // bubblewrap's --die-with-parent ties the sandbox to the thread that started it
        // (PR_SET_PDEATHSIG): spawn from a thread that lives as long as the browser.
        let (spawned, pid) = SpawningThread.shared.run { spawn(arguments, environment: environment, socket: socket, errors: nil) }
        theirs.close()
        guard spawned == 0 else {
            ours.close()
            return .failure(.couldNotStart("\(arguments[0]): \(String(cString: strerror(spawned)))"))
        }
        switch ours.receive(timeout: startTimeout) {
        case .message(let message, let descriptors):
            for descriptor in descriptors { close(descriptor) }
            if let ready = try? DecoderReady(message) {
                return .success(DecoderProcess(pid: pid, channel: ours, ready: ready, bubblewrapped: launch.bubblewrap != nil))
            }
            end(pid: pid, channel: ours)
            return .failure(.couldNotStart("it did not say it was ready"))
        case .timeout:
            end(pid: pid, channel: ours)
            return .failure(.couldNotStart("it did not start in time"))
        case .closed, .malformed:
            let status = end(pid: pid, channel: ours)
            return .failure(.couldNotStart("it ended at once (\(status))"))
        }
    }

    /// Whether `launch`'s sandbox can be made here: a program started in it
    /// (`DecoderLaunch.probeArguments`) must exit at once with status 0. What bubblewrap writes when it cannot (a chroot, no
    /// user namespaces) is read, not left on this process's standard error: nil when the
    /// sandbox could be made, else why not, in bubblewrap's words when it gave some.
    static func probe(_ launch: DecoderLaunch, timeout: Double = 10) -> String? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return "no pipe: \(String(cString: strerror(errno)))" }
        let (reading, writing) = (ends[0], ends[1])
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(reading, F_SETFL, O_NONBLOCK)
        defer { close(reading) }
        let arguments = launch.probeArguments, environment = launch.environment
        let (spawned, pid) = SpawningThread.shared.run { spawn(arguments, environment: environment, socket: nil, errors: writing) }
        close(writing)
        guard spawned == 0 else { return "\(arguments[0]): \(String(cString: strerror(spawned)))" }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var ended = false
        while !ended && Date() < deadline {
            ended = waitpid(pid, &status, WNOHANG) == pid
            if !ended { usleep(5_000) }
        }
        if !ended {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return "it did not start in time"
        }
        if status == 0 { return nil }
        var said = [UInt8](repeating: 0, count: 1024)
        let count = read(reading, &said, said.count)
        let words = count > 0 ? String(decoding: said[0..<count], as: UTF8.self) : ""
        let firstLine = words.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let reason = OutsideText(firstLine.hasPrefix("bwrap: ") ? String(firstLine.dropFirst(7)) : firstLine).cleaned
        return reason.isEmpty ? describe(status) : reason
    }

    /// Starts `arguments` with `socket` (if any) as its descriptor 3, its standard input from
    /// /dev/null, its standard error to `errors` when given (and then its standard output to
    /// /dev/null), signals at their defaults and only `environment`; returns posix_spawn's
    /// error (0 when started) and the pid.
    private static func spawn(_ arguments: [String], environment: [String], socket: Int32?, errors: Int32?) -> (Int32, pid_t) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let socket { posix_spawn_file_actions_adddup2(&actions, socket, 3) }
        // A probe's complaints are read; what it prints (bubblewrap's version) goes nowhere.
        if let errors {
            posix_spawn_file_actions_adddup2(&actions, errors, 2)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals back to their defaults and none blocked, whatever this process did.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // No environment but quiet crashes (a crash on a hostile file is expected, and the
        // runtime's backtrace of it would only fill the log) and the language.
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        return (spawned, pid)
    }

    /// Runs one request on `descriptors` (which stay the caller's to close). Waits up to
    /// `timeout` seconds. A cancelled flag is passed on to the process and ends the wait at
    /// once with `.cancelled`: the process is still busy with the request until it answers
    /// the cancel, and must `settle` before it is used again. On any other breakdown the
    /// process has been ended and must not be used again.
    func run(_ request: DecoderRequest, descriptors: [Int32], timeout: Double, cancellation: CancellationFlag)
        -> Result<(DecoderReply, pixels: Int32?), DecoderBreakdown> {
        var request = request
        request.id = nextID
        nextID += 1
        guard channel.send(request.message, descriptors: descriptors) else {
            return .failure(.crashed(endNow()))
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if cancellation.isCancelled {
                guard channel.send(DecoderCancel(id: request.id).message) else { return .failure(.crashed(endNow())) }
                return .failure(.cancelled(request: request.id))
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                _ = endNow()
                return .failure(.hung(timeout))
            }
            switch channel.receive(timeout: Int32(min(left, 0.05) * 1000) + 1) {
            case .timeout:
                continue
            case .message(let message, let descriptors):
                let pixels = descriptors.first
                guard let reply = try? DecoderReply(message), reply.id == request.id else {
                    if let pixels { close(pixels) }
                    return .failure(.spokeNonsense("a reply that is not one", endNow()))
                }
                lastUsed = Date()
                return .success((reply, pixels))
            case .malformed(let reason):
                return .failure(.spokeNonsense(reason, endNow()))
            case .closed:
                return .failure(.crashed(endNow()))
            }
        }
    }

    /// After a request was cancelled (`run` gave `.cancelled(id)`): waits up to `grace`
    /// seconds for the process to answer it, whatever the answer. Returns true when it did
    /// and can take the next request; otherwise (stopped, hung, gone, nonsense) the process
    /// has been ended.
    func settle(after id: UInt64, grace: Double) -> Bool {
        let deadline = Date().addingTimeInterval(grace)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                _ = endNow()
                return false
            }
            switch channel.receive(timeout: Int32(min(left, 0.05) * 1000) + 1) {
            case .timeout:
                continue
            case .message(let message, let descriptors):
                for descriptor in descriptors { close(descriptor) }
                guard let reply = try? DecoderReply(message), reply.id == id else {
                    _ = endNow()
                    return false
                }
                lastUsed = Date()
                return true
            case .malformed, .closed:
                _ = endNow()
                return false
            }
        }
    }

    /// Kills the process and collects it; says how it ended.
    func endNow() -> String {
        Self.end(pid: pid, channel: channel)
    }

    @discardableResult
    private static func end(pid: pid_t, channel: DecoderChannel) -> String {
        // A process that already ended is collected; one that is running is killed first.
        // One that closed its socket is given a moment to end by itself, so its status says
        // why (bubblewrap passes on its child's).
        channel.close()
        var status: Int32 = 0
        for _ in 0..<20 {
            if waitpid(pid, &status, WNOHANG) == pid { return describe(status) }
            usleep(5_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return describe(status)
    }

    /// A wait status in words.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exit status \((status >> 8) & 0xFF)" }
        let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
        return "\(name.lowercased()), signal \(signal)"
    }
}

/// How a decoder process failed a request, which ended it (but `.cancelled`).
enum DecoderBreakdown: Error {
    case couldNotStart(String)
    /// The process ended in the middle of a request (a crash, or the memory or CPU limit).
    case crashed(String)
    /// No answer within the time allowed: the process was killed.
    case hung(Double)
    /// The process sent something that is not a reply to the request.
    case spokeNonsense(String, String)
    /// The request was cancelled and not waited for: the process did not break down, but
    /// is still busy with `request` until it `settle`s (nil: no process was reached).
    case cancelled(request: UInt64?)

    var description: String {
        switch self {
        case .couldNotStart(let reason): "the decoder could not start: \(reason)"
        case .crashed(let status): "the decoder ended while decoding it (\(status))"
        case .hung(let seconds): "the decoder did not finish within \(Int(seconds)) s and was stopped"
        case .spokeNonsense(let reason, _): "the decoder answered nonsense (\(reason)) and was stopped"
        case .cancelled: "the request was cancelled"
        }
    }
}

/// A thread that lives as long as the browser and starts decoder processes for the threads
/// that need them, which come and go.
private final class SpawningThread: @unchecked Sendable {
    static let shared = SpawningThread()
    private let lock = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            while true {
                lock.lock()
                while jobs.isEmpty { lock.wait() }
                let job = jobs.removeFirst()
                lock.unlock()
                job()
            }
        }
        thread.name = "decoder-spawner"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `body` on the thread and returns its result.
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = NSCondition()
        var result: T?
        lock.lock()
        jobs.append {
            let value = body()
            done.lock()
            result = value
            done.signal()
            done.unlock()
        }
        lock.signal()
        lock.unlock()
        done.lock()
        while result == nil { done.wait() }
        done.unlock()
        return result!
    }
}
