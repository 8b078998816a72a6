import Foundation
import Glibc
import PhotoCore
@testable import PhotoIO
import Synchronization
import Testing

/// Files on another machine, copied as they are read: the first bytes, then the rest from
/// where the first read stopped, each byte read from the server once while a copy is kept.
@Suite struct RemoteFileCopiesTests {
    private let folder = TempFolder()
    private let server = MemoryServer()

    private func copies(maxBytes: Int = 1 << 30, maxFiles: Int = 256) -> RemoteFileCopies {
        RemoteFileCopies(folder: folder.path, maxBytes: maxBytes, maxFiles: maxFiles, files: server)
    }

    private func contents(_ fd: Int32) -> [UInt8] { Self.contents(fd) }

    private static func contents(_ fd: Int32) -> [UInt8] {
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    @Test(arguments: [true, false])
    func thePrefixThenTheWholeFileReadEachByteOnce(seekable: Bool) throws {
        server.seekable = seekable
        let photo = randomBytes(1_000_000)
        server.files["sftp://host/a.jpg"] = photo
        let copies = copies()
        let prefix = try copies.open("sftp://host/a.jpg", reach: .prefix(128 << 10), cancellation: CancellationFlag()).get()
        #expect(prefix.name == "a.jpg")
        let start = contents(prefix.fd)
        #expect(start.count >= 128 << 10 && start.count < photo.count)
        #expect(Array(photo.prefix(start.count)) == start)
        #expect(!copies.hasWhole("sftp://host/a.jpg"))
        let whole = try copies.open("sftp://host/a.jpg", reach: .whole, cancellation: CancellationFlag()).get()
        #expect(contents(whole.fd) == photo)
        #expect(copies.hasWhole("sftp://host/a.jpg"))
        // Read again, prefix or whole: from the copy.
        _ = contents(try copies.open("sftp://host/a.jpg", reach: .whole, cancellation: CancellationFlag()).get().fd)
        _ = contents(try copies.open("sftp://host/a.jpg", reach: .prefix(4096), cancellation: CancellationFlag()).get().fd)
        #expect(copies.totals.files == 2)
        // A stream that cannot seek reads the first bytes again, and only those.
        #expect(copies.totals.bytes == Int64(seekable ? photo.count : photo.count + start.count))
        #expect(server.bytesServed == copies.totals.bytes)
    }

    @Test func aShortFileIsWholeAfterItsPrefix() throws {
        server.files["smb://nas/s.png"] = randomBytes(5000)
        let copies = copies()
        #expect(contents(try copies.open("smb://nas/s.png", reach: .prefix(128 << 10), cancellation: CancellationFlag()).get().fd).count == 5000)
        #expect(copies.hasWhole("smb://nas/s.png"))
        _ = try copies.open("smb://nas/s.png", reach: .whole, cancellation: CancellationFlag()).get()
        #expect(server.opens == 1)
    }

    @Test func readersOfOneFileAtOnceShareOneCopy() {
        let photo = randomBytes(2_000_000)
        server.files["sftp://host/b.jpg"] = photo
        server.delay = 0.001
        let copies = copies()
        let results = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if case .success(let file) = copies.open("sftp://host/b.jpg", reach: .whole, cancellation: CancellationFlag()) {
                let bytes = Self.contents(file.fd)
                results.withLock { $0.append(bytes) }
            }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 == photo } && results.withLock { $0.count } == 4)
        #expect(server.bytesServed == Int64(photo.count))
    }

    @Test func theLeastRecentlyUsedCopiesGoPastTheLimits() throws {
        for name in ["1", "2", "3"] { server.files["sftp://host/\(name).jpg"] = randomBytes(300_000) }
        let copies = copies(maxBytes: 700_000)
        for name in ["1", "2", "3"] { close(try copies.open("sftp://host/\(name).jpg", reach: .whole, cancellation: CancellationFlag()).get().fd) }
        #expect(!copies.hasWhole("sftp://host/1.jpg"))
        #expect(copies.hasWhole("sftp://host/2.jpg") && copies.hasWhole("sftp://host/3.jpg"))
        let byCount = self.copies(maxFiles: 2)
        for name in ["1", "2", "3", "2"] { close(try byCount.open("sftp://host/\(name).jpg", reach: .prefix(1000), cancellation: CancellationFlag()).get().fd) }
        #expect(byCount.totals.files == 3)
    }

    @Test func aFailedReadIsSaidAndTheNextCarriesOn() throws {
        let photo = randomBytes(400_000)
        server.files["sftp://host/c.jpg"] = photo
        server.failAfter = 200_000
        let copies = copies()
        let failed = copies.open("sftp://host/c.jpg", reach: .whole, cancellation: CancellationFlag())
        #expect(failed.failure?.kind == .unreadable)
        server.failAfter = nil
        #expect(contents(try copies.open("sftp://host/c.jpg", reach: .whole, cancellation: CancellationFlag()).get().fd) == photo)
        #expect(copies.open("sftp://host/none.jpg", reach: .whole, cancellation: CancellationFlag()).failure?.kind == .unreadable)
    }

    @Test func aCancelledCopyStopsAndFolderCopiesAreForgotten() throws {
        server.files["sftp://host/d/e.jpg"] = randomBytes(3_000_000)
        let copies = copies()
        let flag = CancellationFlag()
        server.cancelAfter = (100_000, flag)
        #expect(copies.open("sftp://host/d/e.jpg", reach: .whole, cancellation: flag).failure?.kind == .cancelled)
        #expect(server.bytesServed < 3_000_000)
        copies.forget(under: "sftp://host/d")
        #expect(!copies.hasWhole("sftp://host/d/e.jpg"))
    }

    @Test func whatIsRemoteIsNeitherLocalNorTheWeb() {
        #expect(RemoteFileCopies.isRemote("sftp://host/a.jpg") && RemoteFileCopies.isRemote("mtp://phone/DCIM/a.jpg"))
        #expect(!RemoteFileCopies.isRemote("file:///home/a.jpg") && !RemoteFileCopies.isRemote("https://e.org/a.jpg"))
        #expect(!RemoteFileCopies.isRemote("/home/a.jpg"))
    }
}

/// Files in memory standing for a server: counts what it serves.
final class MemoryServer: RemoteFiles, @unchecked Sendable {
    private let lock = NSLock()
    private var _files: [String: [UInt8]] = [:]
    private var _served: Int64 = 0
    private var _opens = 0
    var seekable = true
    var delay = 0.0
    var failAfter: Int?
    /// Sets the flag once this many bytes were read from a stream (the reader lets go).
    var cancelAfter: (Int, CancellationFlag)?

    var files: [String: [UInt8]] {
        get { lock.withLock { _files } }
        set { lock.withLock { _files = newValue } }
    }
    var bytesServed: Int64 { lock.withLock { _served } }
    var opens: Int { lock.withLock { _opens } }

    func open(_ uri: String, cancellation: CancellationFlag) -> Result<any RemoteStream, DecodeFailure> {
        guard let bytes = files[uri] else { return .failure(DecodeFailure(.unreadable, "No such file")) }
        lock.withLock { _opens += 1 }
        return .success(Stream(bytes, name: String(uri.split(separator: "/").last!), server: self))
    }

    fileprivate func served(_ n: Int) { lock.withLock { _served += Int64(n) } }

    final class Stream: RemoteStream {
        let bytes: [UInt8]
        let name: String?
        var size: Int64? { Int64(bytes.count) }
        private var position = 0
        private let server: MemoryServer

        init(_ bytes: [UInt8], name: String, server: MemoryServer) {
            self.bytes = bytes
            self.name = name
            self.server = server
        }

        func seek(to offset: Int) -> Bool {
            guard server.seekable else { return false }
            position = offset
            return true
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, DecodeFailure> {
            if server.delay > 0 { Thread.sleep(forTimeInterval: server.delay) }
            if let limit = server.failAfter, position >= limit { return .failure(DecodeFailure(.unreadable, "Connection lost")) }
            let n = min(buffer.count, 16384, bytes.count - position)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
            position += n
            server.served(n)
            if let (limit, flag) = server.cancelAfter, position >= limit { flag.cancel() }
            return .success(n)
        }

        func close() {}
    }
}
