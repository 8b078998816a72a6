/// When a listing (or a reading of dates) hands over its next batch: the first at once, so
/// the first screenful shows while the rest is still being read; the wait between later ones
/// starts at `interval` and doubles up to `maximumInterval`, since each batch costs the main
/// thread a merge proportional to what is already shown (a 100,000-photo folder arrives in
/// about a dozen batches, not hundreds).
struct DeliveryPacing {
    let interval: Double
    let maximumInterval: Double
    private var lastDelivery = -1.0
    private var wait = 0.0

    init(interval: Double, maximumInterval: Double) {
        self.interval = interval
        self.maximumInterval = maximumInterval
    }

    /// Whether a batch may go out at `now` (seconds, any fixed origin).
    func isDue(now: Double) -> Bool { lastDelivery < 0 || now - lastDelivery >= wait }

    /// Records a batch that went out at `now`.
    mutating func delivered(now: Double) {
        lastDelivery = now
        wait = min(max(wait * 2, interval), maximumInterval)
    }
}
