/// Why a file could not be exported, saved, moved to the trash, restored or deleted, in words
/// for a person.
public struct FileOperationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// No permission to read the file, or to write in (or remove from) its folder.
        case permissionDenied
        /// The disk (or the quota) is full.
        case noSpace
        /// The target is on a disk mounted read-only.
        case readOnly
        /// The file is gone (deleted or renamed since it was listed), or the trashed item is.
        case vanished
        /// The target folder does not exist, or is not a folder.
        case noFolder
        /// The file is a folder, a pipe, a device: nothing to copy byte for byte.
        case notAFile
        /// A copy's chosen name is taken, and nothing is ever overwritten.
        case exists
        /// The file's disk has no trash: ask before deleting it for good.
        case notSupported
        /// The operation was cancelled before or while this file was handled.
        case cancelled
        /// Anything else; the message says what.
        case other
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
