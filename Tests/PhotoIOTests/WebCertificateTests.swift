import Foundation
@testable import PhotoIO
import Testing

/// HTTPS with a certificate nobody vouches for: refused with a message, never accepted.
@Suite struct WebCertificateTests {
    static let openssl = ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A self-signed certificate for 127.0.0.1 (its name matches: only its signer is unknown).
    private func selfSignedCertificate(in folder: TempFolder) throws -> (cert: String, key: String) {
        let cert = folder.path("cert.pem"), key = folder.path("key.pem")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.openssl!)
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl made no certificate")
        return (cert, key)
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed (build-aux/install-deps.sh test installs it)"))
    func aSelfSignedCertificateIsRefused() throws {
        let keys = TempFolder()
        let server = try PhotoServer(certificate: try selfSignedCertificate(in: keys))
        server.serve("photo.jpg", bytes: randomBytes(10_000))
        let cacheFolder = TempFolder()
        let cache = WebCache(folder: cacheFolder.path + "/http")
        #expect(server.url("/photo.jpg").hasPrefix("https://"))

        let result = WebDownload(WebRequest(url: server.url("/photo.jpg")), client: WebClient(), cache: cache).run()
        let failure = try #require(result.failure)
        #expect(failure.kind == .insecure)
        #expect(!failure.canRetry)
        #expect(failure.message == "The connection to 127.0.0.1 was refused: its certificate is not signed by a trusted authority.")
        // Nothing was asked over the connection, and nothing kept.
        #expect(server.counts("/photo.jpg").requests == 0)
        #expect(filesIn(cache.folder).isEmpty)
    }

    @Test func plainHTTPOnAnHTTPSAddressIsNoSecureConnection() throws {
        let server = try PhotoServer()
        server.serve("photo.jpg", bytes: randomBytes(1000))
        let cacheFolder = TempFolder()
        let cache = WebCache(folder: cacheFolder.path + "/http")
        let url = server.url("/photo.jpg").replacingOccurrences(of: "http://", with: "https://")
        let failure = try #require(WebDownload(WebRequest(url: url), client: WebClient(), cache: cache).run().failure)
        #expect(failure.kind == .insecure)
        #expect(filesIn(cache.folder).isEmpty)
    }
}
