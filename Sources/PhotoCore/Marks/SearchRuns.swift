/// The searches of one window, run on a worker. Another search asked for (a key typed)
/// replaces the one running: the caller cancels it, and its result is not shown. The same
/// search asked for again while it runs (marks read meanwhile, more photos listed) does not
/// replace it: its result is shown when it ends, and it runs once more then. Otherwise, on
/// a large album whose marks come in faster than a run over it ends, each run would cancel
/// the one before and no result would ever be shown.
public struct SearchRuns<Search: Equatable & Sendable>: Sendable {
    /// The search running now, and the number its run was started under.
    public private(set) var running: (search: Search, run: Int)?
    private var again = false
    private var runs = 0

    public init() {}

    /// `search` is asked for: the number to start its run under (cancel the run before it),
    /// or nil when it is the search running now, which runs again once it ends.
    public mutating func ask(_ search: Search) -> Int? {
        if let running, running.search == search {
            again = true
            return nil
        }
        runs += 1
        running = (search, runs)
        again = false
        return runs
    }

    /// No search any more (cleared, the folder left): the run in progress shows nothing.
    public mutating func clear() {
        running = nil
        again = false
    }

    /// Run `run` ended: whether its result is shown, and the search to run again (asked for
    /// again meanwhile), if any.
    public mutating func finished(_ run: Int) -> (show: Bool, again: Search?) {
        guard let running, running.run == run else { return (false, nil) }
        self.running = nil
        defer { again = false }
        return (true, again ? running.search : nil)
    }
}
