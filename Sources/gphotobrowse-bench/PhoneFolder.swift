import Dispatch
import Foundation
import PhotoCore
import PhotoIO

/// A folder as a phone's DCIM holds it: JPEGs, HEIC photos and MP4 clips side by side.
/// The photos are a `CameraPhotoFolder`'s (1280 × 960 JPEGs with EXIF dates and previews);
/// every fourth from the second is made a HEIC with `heif-enc` (libheif-examples, quality 80,
/// as a phone's), and every fourth from the fourth an MP4 of 3 seconds at 1280 × 720 and 30
/// frames a second made with `gst-launch-1.0` (MPEG-4 Part 2: Debian 12 has no H.264
/// encoder). A stamp file, written last, says that the folder is whole.
struct PhoneFolder {
    let root: String
    let count: Int

    private var stampPath: String { root + "/.phone-folder" }
    private var stamp: String { "\(count) files: JPEG, HEIC, MP4\n" }
    var isMade: Bool { (try? String(contentsOfFile: stampPath, encoding: .utf8)) == stamp }

    /// What file `index` is.
    enum Kind: String { case jpeg = "JPEG", heic = "HEIC", mp4 = "MP4" }
    func kind(_ index: Int) -> Kind { index % 4 == 1 ? .heic : index % 4 == 3 ? .mp4 : .jpeg }

    /// Makes the folder (unless made already); false, said on stderr, when a tool is
    /// missing or fails.
    func make() -> Bool {
        if isMade { return true }
        guard let heifEnc = which("heif-enc") else {
            printError("heif-enc is not installed (apt-get install libheif-examples)")
            return false
        }
        guard let gstLaunch = which("gst-launch-1.0") else {
            printError("gst-launch-1.0 is not installed (apt-get install gstreamer1.0-tools)")
            return false
        }
        let camera = CameraPhotoFolder(root: root, count: count)
        guard camera.make() else { return false }
        let failed = forEachIndex(below: count) { index in
            let jpeg = root + "/" + camera.photoName(index)
            let stem = (jpeg as NSString).deletingPathExtension
            switch kind(index) {
            case .jpeg: return true
            case .heic:
                guard run(heifEnc, ["-q", "80", jpeg, "-o", stem + ".heic"]) else { return false }
            case .mp4:
                let pattern = ["smpte", "ball", "snow", "gradient"][index / 4 % 4]
                guard run(gstLaunch, ["-q", "videotestsrc", "num-buffers=90", "pattern=\(pattern)", "!",
                                      "video/x-raw,width=1280,height=720,framerate=30/1", "!", "videoconvert", "!",
                                      "avenc_mpeg4", "bitrate=8000000", "!", "mp4mux", "!", "filesink", "location=\(stem).mp4"]) else {
                    return false
                }
            }
            unlink(jpeg)
            return true
        }
        guard failed == 0 else {
            printError("could not make \(failed) of the files in \(root)")
            return false
        }
        return FileManager.default.createFile(atPath: stampPath, contents: Data(stamp.utf8))
    }

    /// How many files of each kind, "6 JPEG, 3 HEIC, 3 MP4".
    var mix: String {
        let kinds: [Kind] = [.jpeg, .heic, .mp4]
        return kinds.map { kind in "\((0..<count).filter { self.kind($0) == kind }.count) \(kind.rawValue)" }.joined(separator: ", ")
    }

    private func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// The phone folder opened in gphotobrowse and in gThumb, each launched with an empty cache
/// in a desktop session of its own: seconds from the launch until every file has a thumbnail
/// (or a failure entry) in the cache, `runs` times each in turns, medians compared.
enum PhoneFolderVisits {
    static let deadline = 60.0

    /// "gThumb X s, gphotobrowse Y s (Rx)", or nil when gThumb is not installed or a run
    /// did not finish.
    static func compare(app: String, folder: String, uris: [String], runs: Int) -> String? {
        guard let gthumb = which("gthumb") else {
            printError("gThumb is not installed: install it with `apt-get install gthumb` (as root) to compare with it")
            return nil
        }
        guard let session = DesktopSession() else { return nil }
        defer { session.end() }
        var ours: [Double] = [], theirs: [Double] = []
        // One untimed run of each first: their libraries and data come into the page cache.
        for round in 0...runs {
            guard let mine = visit(session, uris: uris, launch: { run in
                startTracedApp(app, [folder], cache: run.cache, config: run.config, environment: run.environment)?.0
            }), let other = visit(session, uris: uris, launch: { run in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: gthumb)
                process.arguments = [folder]
                process.environment = run.environment
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return (try? process.run()) != nil ? process : nil
            }) else { return nil }
            guard round > 0 else { continue }
            print(String(format: "  app visit %d: gphotobrowse %.2f s (%d failed), gThumb %.2f s (%d failed)",
                         round, mine.seconds, mine.failed, other.seconds, other.failed))
            ours.append(mine.seconds)
            theirs.append(other.seconds)
        }
        let (a, b) = (median(ours), median(theirs))
        return String(format: "gThumb %.2f s, gphotobrowse %.2f s (%.2fx)", b, a, b / a)
    }

    /// Launches an app on an empty cache: the seconds until every file has a thumbnail or a
    /// failure entry, and how many have failure entries; nil when not within the deadline.
    private static func visit(_ session: DesktopSession, uris: [String],
                              launch: (CleanLaunch) -> Process?) -> (seconds: Double, failed: Int)? {
        guard let run = CleanLaunch(session) else { return nil }
        defer { run.finish() }
        let started = Date()
        guard let process = launch(run) else {
            printError("could not start an app on the phone folder")
            return nil
        }
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let thumbnails = run.cache + "/thumbnails"
        let names = uris.map(ThumbnailCacheLayout.fileName(forURI:))
        while Date().timeIntervalSince(started) < deadline {
            let failFolders = ((try? FileManager.default.contentsOfDirectory(atPath: thumbnails + "/fail")) ?? []).map { thumbnails + "/fail/" + $0 }
            var failed = 0
            let done = names.allSatisfy { name in
                if ["normal", "large", "x-large"].contains(where: { access(thumbnails + "/" + $0 + "/" + name, F_OK) == 0 }) { return true }
                if failFolders.contains(where: { access($0 + "/" + name, F_OK) == 0 }) {
                    failed += 1
                    return true
                }
                return false
            }
            if done { return (Date().timeIntervalSince(started), failed) }
            usleep(5_000)
        }
        printError("not every file had a thumbnail within \(Int(deadline)) s")
        return nil
    }
}
