import Foundation
import Testing
@testable import PhotoCore

/// Benchmarks place their own events on a traced process's clock: milliseconds since that
/// process started, as its trace lines count them.
@Suite struct TraceClockTests {
    @Test func thisProcessReadsTheClockItsOwnTraceLinesUse() throws {
        let before = Trace.millisecondsSinceStart()
        let read = try #require(Trace.millisecondsSinceStart(ofProcess: getpid()))
        let after = Trace.millisecondsSinceStart()
        #expect(before <= read && read <= after)
    }

    @Test func aProcessStartedLaterIsYoungerOnItsOwnClock() throws {
        // `cat` waits on its input until this closes it (no signal needed to end it).
        let child = Process(), input = Pipe()
        child.executableURL = URL(fileURLWithPath: "/bin/cat")
        child.standardInput = input
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        defer {
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        let childClock = try #require(Trace.millisecondsSinceStart(ofProcess: child.processIdentifier))
        #expect(childClock >= 0)
        #expect(childClock <= Trace.millisecondsSinceStart())
    }

    @Test func aProcessThatDoesNotExistHasNoClock() {
        #expect(Trace.millisecondsSinceStart(ofProcess: Int32.max) == nil)
    }
}
