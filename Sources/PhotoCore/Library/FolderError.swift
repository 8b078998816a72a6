/// Why a folder (or an album's source) could not be listed, in words for a person.
public struct FolderError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// Whether trying again may work (a server that could not be reached): a Retry button.
    public let canRetry: Bool
    public var description: String { message }

    public init(message: String, canRetry: Bool = false) {
        self.message = message
        self.canRetry = canRetry
    }
}
