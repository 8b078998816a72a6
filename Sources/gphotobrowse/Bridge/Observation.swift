/// An observer registered with a model that outlives it (the folder's thumbnail loader, the
/// downloads, the settings): the model stops calling it when this goes. The observing
/// object holds its observations in stored properties, so an observer lasts exactly as long
/// as what observes, whoever forgets to stop it. `live Observer N` (the live-objects trace)
/// counts them.
@MainActor
final class Observation {
    private let live = LiveObjects.Token("Observer")
    private let remove: @MainActor () -> Void

    init(removing remove: @escaping @MainActor () -> Void) {
        self.remove = remove
    }

    isolated deinit { remove() }
}
