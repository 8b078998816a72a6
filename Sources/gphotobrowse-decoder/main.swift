// gphotobrowse-decoder: the process the browser decodes photos in, confined, one file
// descriptor at a time. Started by the browser (`IsolatedDecoder`), never by a person.
import Foundation
import PhotoIO

DecoderService.main(arguments: CommandLine.arguments)
