import CConfinement
import Glibc
import PhotoCore

/// One end of the socket between the browser and a decoder process: whole messages
/// (`SOCK_SEQPACKET`) with file descriptors beside them: one file to decode, a batch of
/// files to read dates from (at most `maxDescriptors`), or the memfd of a reply's pixels.
///
/// Both ends read the other's messages as hostile: too long, cut short, carrying more than one
/// descriptor, or not a `DecoderMessage` is `.malformed`, and any descriptor that came with it
/// is closed. Each side says how many descriptors it takes with one message.
public final class DecoderChannel: @unchecked Sendable {
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    /// A connected pair: one end for each process. Both are close-on-exec.
    public static func pair() -> (DecoderChannel, DecoderChannel)? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        return (DecoderChannel(fd: fds[0]), DecoderChannel(fd: fds[1]))
    }

    public func close() { Glibc.close(fd) }

    /// The most descriptors one message carries.
    public static let maxDescriptors = 64

    /// Sends one message, with `descriptor` beside it when given. False when the other end
    /// is gone.
    @discardableResult
    public func send(_ message: DecoderMessage, descriptor: Int32? = nil) -> Bool {
        send(message, descriptors: descriptor.map { [$0] } ?? [])
    }

    /// Sends one message with `descriptors` (at most `maxDescriptors`) beside it.
    @discardableResult
    public func send(_ message: DecoderMessage, descriptors: [Int32]) -> Bool {
        precondition(descriptors.count <= Self.maxDescriptors)
        var bytes = message.encoded()
        return bytes.withUnsafeMutableBytes { payload -> Bool in
            var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
            var header = msghdr()
            let controlSize = cconf_cmsg_space_fds(Int32(descriptors.count))
            let control = UnsafeMutableRawPointer.allocate(byteCount: max(controlSize, 1), alignment: 8)
            defer { control.deallocate() }
            control.initializeMemory(as: UInt8.self, repeating: 0, count: controlSize)
            return withUnsafeMutablePointer(to: &vector) { vectorPointer -> Bool in
                header.msg_iov = vectorPointer
                header.msg_iovlen = 1
                if !descriptors.isEmpty {
                    header.msg_control = control
                    header.msg_controllen = controlSize
                    let cmsg = cconf_cmsg_firsthdr(&header)!
                    cmsg.pointee.cmsg_level = SOL_SOCKET
                    cmsg.pointee.cmsg_type = Int32(SCM_RIGHTS)
                    cmsg.pointee.cmsg_len = cconf_cmsg_len_fds(Int32(descriptors.count))
                    let data = UnsafeMutableRawPointer(cconf_cmsg_data(cmsg)!)
                    for (i, descriptor) in descriptors.enumerated() {
                        data.storeBytes(of: descriptor, toByteOffset: i * 4, as: Int32.self)
                    }
                }
                while true {
                    let sent = sendmsg(fd, &header, Int32(MSG_NOSIGNAL))
                    if sent >= 0 { return true }
                    if errno != EINTR { return false }
                }
            }
        }
    }

    public enum Received {
        case message(DecoderMessage, descriptors: [Int32])
        /// Nothing arrived in the time allowed.
        case timeout
        /// The other end closed (the process ended or was killed).
        case closed
        case malformed(String)
    }

    /// Waits up to `timeout` milliseconds (-1: for ever) for one message with at most
    /// `maxDescriptors` descriptors (more, and the message is refused).
    public func receive(timeout: Int32, maxDescriptors: Int = 1) -> Received {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, timeout)
            if ready > 0 { break }
            if ready == 0 { return .timeout }
            if errno != EINTR { return .closed }
        }
        let capacity = DecoderMessage.maxSize + 1
        let payload = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { payload.deallocate() }
        // Room for more descriptors than allowed, so that extra ones are received (and
        // closed), not lost in the kernel with MSG_CTRUNC.
        let controlSize = cconf_cmsg_space_fds(Int32(Self.maxDescriptors + 8))
        let control = UnsafeMutableRawPointer.allocate(byteCount: controlSize, alignment: 8)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: controlSize)
        var vector = iovec(iov_base: payload, iov_len: capacity)
        var header = msghdr()
        let count: Int = withUnsafeMutablePointer(to: &vector) { vectorPointer in
            header.msg_iov = vectorPointer
            header.msg_iovlen = 1
            header.msg_control = control
            header.msg_controllen = controlSize
            while true {
                let n = recvmsg(fd, &header, Int32(MSG_CMSG_CLOEXEC))
                if n >= 0 || errno != EINTR { return n }
            }
        }
        if count < 0 { return errno == EAGAIN ? .timeout : .closed }

        var descriptors: [Int32] = []
        var cmsg = cconf_cmsg_firsthdr(&header)
        while let current = cmsg {
            if current.pointee.cmsg_level == SOL_SOCKET && current.pointee.cmsg_type == Int32(SCM_RIGHTS) {
                let dataBytes = Int(current.pointee.cmsg_len) - Int(cconf_cmsg_len_fds(0))
                let data = UnsafeRawPointer(cconf_cmsg_data(current)!)
                for i in 0..<max(0, dataBytes / MemoryLayout<Int32>.size) {
                    descriptors.append(data.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))
                }
            }
            cmsg = cconf_cmsg_nexthdr(&header, current)
        }
        func refuse(_ reason: String) -> Received {
            for descriptor in descriptors { Glibc.close(descriptor) }
            return .malformed(reason)
        }
        if count == 0 && descriptors.isEmpty { return .closed }
        if header.msg_flags & Int32(MSG_TRUNC) != 0 { return refuse("message too long") }
        if header.msg_flags & Int32(MSG_CTRUNC) != 0 { return refuse("too many descriptors") }
        if descriptors.count > maxDescriptors { return refuse("\(descriptors.count) descriptors with one message") }
        do {
            let message = try DecoderMessage(decoding: UnsafeRawBufferPointer(start: payload, count: count))
            return .message(message, descriptors: descriptors)
        } catch {
            return refuse(error.reason)
        }
    }
}
