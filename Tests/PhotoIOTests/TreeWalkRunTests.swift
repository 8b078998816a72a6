import Foundation
import PhotoCore
@testable import PhotoIO
import Testing

/// Counts wake-ups from a walk's thread and lets the test wait for them.
private final class Wakes: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func wake() {
        condition.lock()
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (10 s at most) until there were more than `seen` wake-ups; the count then.
    func wait(after seen: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while count <= seen, condition.wait(until: deadline) {}
        return count
    }
}

/// Takes from `run` until the walk's end comes, waiting for wake-ups in between.
private func takeToTheEnd(_ run: TreeWalkRun, wakes: Wakes) -> TreeWalkRun.Found {
    var all = TreeWalkRun.Found()
    var seen = 0
    for _ in 0..<1000 {
        let taken = run.take()
        all.folders += taken.folders
        all.leftOut += taken.leftOut
        all.photos += taken.photos
        if let end = taken.end {
            all.end = end
            return all
        }
        let now = wakes.wait(after: seen)
        if now == seen { break }  // no wake-up within 10 s: the test fails on the missing end
        seen = now
    }
    return all
}

/// Waits (10 s at most) until the walk of `run` has ended; whether it did.
private func waitForTheEnd(of run: TreeWalkRun) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !run.hasEnded && Date() < deadline { usleep(1_000) }
    return run.hasEnded
}

@Suite struct TreeWalkRunTests {
    private let folder = TempFolder()

    private func makeTree() {
        let png: [UInt8] = {
            let seed = TempFolder()
            seed.image("seed.png", width: 4, height: 4)
            return seed.bytes("seed.png")
        }()
        for (path, names) in [("", ["top.png"]), ("2024/Kyoto", ["a.png", "b.png"]), ("2024/Lisbon", ["c.png"]), (".hidden", ["d.png"])] {
            try! FileManager.default.createDirectory(atPath: folder.path(path), withIntermediateDirectories: true)
            for name in names { folder.file(path.isEmpty ? name : path + "/" + name, bytes: png) }
        }
    }

    @Test func whatTheWalkFoundBeforeAnyoneAskedIsAllThere() {
        makeTree()
        let run = TreeWalkRun.start(uri: folder.uri)
        let wakes = Wakes()
        // Nobody takes until the walk has ended: everything waits in the run.
        #expect(waitForTheEnd(of: run))
        run.adopt { wakes.wake() }
        let found = takeToTheEnd(run, wakes: wakes)

        guard case .success(let totals) = found.end else {
            Issue.record("the walk did not end well: \(String(describing: found.end))")
            return
        }
        #expect(totals.photos == 4)
        let names = Set(found.photos.flatMap { batch in batch.photos.map { (batch.folder.path + [$0.displayName]).joined(separator: "/") } })
        #expect(names == ["top.png", "2024/Kyoto/a.png", "2024/Kyoto/b.png", "2024/Lisbon/c.png"])
        #expect(Set(found.folders.map { $0.path.joined(separator: "/") }) == ["2024", "2024/Kyoto", "2024/Lisbon"])
        #expect(found.leftOut.map(\.reason) == [.hidden])
        // Taken once: nothing more comes.
        #expect(run.take().isEmpty)
    }

    @Test func theFirstDeliveryCanBeTakenAloneAndTheRestWakesTheOneAdopting() {
        makeTree()
        let run = TreeWalkRun.start(uri: folder.uri)
        #expect(waitForTheEnd(of: run))
        let first = run.take(firstDeliveryOnly: true)
        #expect(!first.photos.isEmpty)
        #expect(first.end == nil, "the end waits until every delivery is taken")
        let wakes = Wakes()
        run.adopt { wakes.wake() }
        #expect(wakes.wait(after: 0) == 1, "adopting with deliveries waiting wakes at once")
        let rest = takeToTheEnd(run, wakes: wakes)
        #expect(first.photos.count + rest.photos.count == 3, "the top folder and the two albums")
        #expect((first.photos + rest.photos).flatMap(\.photos).count == 4)
        #expect(rest.end != nil)
    }

    @Test func aSubfolderWalkPlacesWhatItFindsUnderItsPath() {
        makeTree()
        let run = TreeWalkRun.start(uri: folder.uri("2024"), under: ["2024"])
        let wakes = Wakes()
        run.adopt { wakes.wake() }
        let found = takeToTheEnd(run, wakes: wakes)
        #expect(Set(found.photos.map { $0.folder.path.joined(separator: "/") }) == ["2024/Kyoto", "2024/Lisbon"])
        #expect(Set(found.folders.map { $0.path.joined(separator: "/") }) == ["2024/Kyoto", "2024/Lisbon"])
    }

    @Test func aWalkStartedAtLaunchIsClaimedOnce() {
        makeTree()
        TreeWalkRun.prestart(uri: folder.uri)
        #expect(TreeWalkRun.claim(uri: folder.uri + "/2024") == nil)
        let run = TreeWalkRun.claim(uri: folder.uri)
        #expect(run != nil)
        #expect(TreeWalkRun.claim(uri: folder.uri) == nil, "a second window walks for itself")
        guard let run else { return }
        let wakes = Wakes()
        run.adopt { wakes.wake() }
        #expect(takeToTheEnd(run, wakes: wakes).photos.flatMap(\.photos).count == 4)
    }

    @Test func aCancelledWalkEnds() {
        makeTree()
        let run = TreeWalkRun.start(uri: folder.uri)
        run.cancel()
        #expect(run.isCancelled)
        let wakes = Wakes()
        run.adopt { wakes.wake() }
        let found = takeToTheEnd(run, wakes: wakes)
        #expect(found.end != nil, "the walk's thread ends, and says so")
    }
}
