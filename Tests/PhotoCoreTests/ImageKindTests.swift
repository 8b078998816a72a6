import Testing
@testable import PhotoCore

@Suite struct ImageKindTests {
    private let supported: Set<String> = ["image/jpeg", "image/png"]

    @Test(arguments: ["image/jpeg", "image/png", "IMAGE/PNG"])
    func supportedTypesAreImages(_ type: String) {
        #expect(ImageKind.classify(contentType: type, supported: supported) == .image)
    }

    @Test(arguments: ["application/octet-stream", "", "application/x-zerosize", nil] as [String?])
    func genericOrMissingTypesAreUnknown(_ type: String?) {
        #expect(ImageKind.classify(contentType: type, supported: supported) == .unknown)
    }

    @Test(arguments: ["text/plain", "image/x-unsupported", "inode/directory"])
    func otherTypesAreLeftOut(_ type: String) {
        #expect(ImageKind.classify(contentType: type, supported: supported) == .other)
    }

    @Test func aliasesOfSupportedTypesAreImages() {
        let aliases = ["image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "image/x-webp": "image/webp"]
        #expect(ImageKind.classify(contentType: "image/jpg", supported: supported, aliases: aliases) == .image)
        #expect(ImageKind.classify(contentType: "image/pjpeg", supported: supported, aliases: aliases) == .image)
        // An alias of a type no decoder reads is still left out.
        #expect(ImageKind.classify(contentType: "image/x-webp", supported: supported, aliases: aliases) == .other)
        #expect(ImageKind.classify(contentType: "image/jpg", supported: supported) == .other)
    }
}
