/// Why a folder (or an album's source) could not be listed, in words for a person.
public struct FolderError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}
