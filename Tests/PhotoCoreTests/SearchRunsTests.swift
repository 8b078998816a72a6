import PhotoCore
import Testing

@Suite struct SearchRunsTests {
    @Test func aSearchStartsAtOnceAndItsResultIsShown() throws {
        var runs = SearchRuns<String>()
        let asked1 = runs.ask("h")
        let run = try #require(asked1)
        let end = runs.finished(run)
        #expect(end.show && end.again == nil)
        #expect(runs.running == nil)
    }

    @Test func anotherSearchReplacesTheRunningOne() throws {
        var runs = SearchRuns<String>()
        let asked2 = runs.ask("h")
        let first = try #require(asked2)
        let asked3 = runs.ask("ha")
        let second = try #require(asked3)
        #expect(second != first)
        // "h" is not what is asked for any more: its result is not shown.
        let old = runs.finished(first)
        #expect(!old.show && old.again == nil)
        let new = runs.finished(second)
        #expect(new.show && new.again == nil)
    }

    @Test func theSameSearchAskedAgainDuringARunDoesNotReplaceIt() throws {
        // Marks arriving while a search runs ask for it again and again: the run goes on, its
        // result is shown, and the search runs once more with what arrived.
        var runs = SearchRuns<String>()
        let asked4 = runs.ask("harbour")
        let run = try #require(asked4)
        for _ in 0..<20 {
            let replaced = runs.ask("harbour")
            #expect(replaced == nil)
        }
        let end = runs.finished(run)
        #expect(end.show)
        #expect(end.again == "harbour")
        let asked5 = runs.ask("harbour")
        let next = try #require(asked5)
        let last = runs.finished(next)
        #expect(last.show && last.again == nil)
    }

    @Test func aClearedSearchShowsNothingOfTheRunInProgress() throws {
        var runs = SearchRuns<String>()
        let asked6 = runs.ask("h")
        let run = try #require(asked6)
        _ = runs.ask("h")
        runs.clear()
        let end = runs.finished(run)
        #expect(!end.show && end.again == nil)
        let started = runs.ask("h")
        #expect(started != nil)
    }
}
