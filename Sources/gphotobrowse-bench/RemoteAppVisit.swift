import Foundation
import PhotoCore

/// One run of the real app on a folder on the sftp server, through the delay proxy: in
/// `launch`'s home (a second run in the same home has the first one's thumbnail cache), in a
/// session of its own (`remoteSession`), traced with a line per tile; the proxy's counts
/// read as the listing and the first screen come and once the app is idle, and the server's
/// log of the files read.
struct RemoteAppVisit {
    /// Tiles in view in the app's window on a 1280 × 1024 screen: six columns by five rows.
    static let screenTiles = 30

    /// Milliseconds since the app started.
    var firstFrame = -1, enumerated = -1, visible = -1
    /// When the dates read (`dates-read` lines) added up to every photo; -1 when they did not.
    var everyDate = -1
    /// The `dates-read` lines' counts (the first holds the dates already known).
    var datesRead: [Int] = []
    /// When the app was idle: its CPU and the network quiet for two seconds (the start of
    /// those two seconds).
    var idle = -1
    var listed = 0, visibleCount = 0
    /// `tile-loaded` lines by the first screen, and in all.
    var tilesLoadedByFirstScreen = 0, tilesLoaded = 0
    /// The proxy's counts from launch to each moment.
    var untilEnumerated = DelayProxyProcess.Counts(), untilFirstScreen = DelayProxyProcess.Counts(), whole = DelayProxyProcess.Counts()
    /// Files the server had opened by the first screen, and its log of the whole run.
    var filesOpenedByFirstScreen = 0
    var reads = SftpReadLog(path: "", from: 0)
    var peakKiB = 0
    /// The `visible-thumbnails` lines by the first screen: tiles in view, ms.
    var visibleLines: [(value: Int, ms: Int)] = []
    /// How the app ended when it did not live to be idle, or nil.
    var ended: String?

    /// Runs the app on `uri` until its first screen of thumbnails and then until it is idle
    /// (`idleSeconds` at most); nil, said on stderr, when a milestone does not come within
    /// two minutes of the one before.
    static func run(_ app: String, uri: String, photos: Int, launch: CleanLaunch, server: SftpServer,
                    proxy: DelayProxyProcess, idleSeconds: Double, screenTiles: Int = screenTiles) -> RemoteAppVisit? {
        guard let session = RemoteSession(launch, agentSocket: server.agentSocket) else { return nil }
        defer { session.end() }
        let environment = session.environment
        let logStart = SftpReadLog.end(of: server.sftpLog)
        let before = proxy.counts()
        guard let (process, stderr) = startTracedApp(app, [uri], cache: launch.cache, config: launch.config,
                                                    environment: environment, trace: "all") else { return nil }
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let lines = TraceReader(stderr)
        var visit = RemoteAppVisit()
        func missing(_ what: String) -> RemoteAppVisit? {
            printError("the app did not report \(what) within 120 s; sshd said: " + server.sshdLogText.suffix(600))
            return nil
        }
        guard let firstFrame = lines.wait(for: "first-frame", seconds: 120) else { return missing("first-frame") }
        // The listing's end and the first screen, in whichever order they come (the grid
        // shows the first photos while the listing goes on): the proxy's counts at each.
        // The first screen is the first `visible-thumbnails` line counting a screenful of
        // tiles: the app also writes one whenever the tiles in view are all shown while the
        // listing still comes, with as few as one photo listed.
        let screenful = min(photos, screenTiles)
        func isEnumerated(_ fields: [Substring]) -> Bool { fields.first == "enumerated" }
        func isFirstScreen(_ fields: [Substring]) -> Bool {
            fields.count == 3 && fields[0] == "visible-thumbnails" && (Int(fields[1]) ?? -1) >= screenful
        }
        guard lines.wait(seconds: 120, { isEnumerated($0) || isFirstScreen($0) }) != nil else { return missing("enumerated or visible-thumbnails") }
        let atFirst = proxy.counts() - before, openedAtFirst = SftpReadLog(path: server.sftpLog, from: logStart).filesOpened
        guard let enumerated = lines.waitForValue("enumerated", seconds: 120) else { return missing("enumerated") }
        guard let visible = lines.waitForValue("visible-thumbnails", atLeast: screenful, seconds: 120) else {
            return missing("visible-thumbnails \(screenful) (it wrote " + lines.lines(named: "visible-thumbnails").map { "\($0.value) at \($0.ms) ms" }.joined(separator: ", ") + ")")
        }
        let atSecond = proxy.counts() - before, openedAtSecond = SftpReadLog(path: server.sftpLog, from: logStart).filesOpened
        (visit.untilEnumerated, visit.untilFirstScreen) = enumerated.ms <= visible.ms ? (atFirst, atSecond) : (atSecond, atFirst)
        visit.filesOpenedByFirstScreen = enumerated.ms <= visible.ms ? openedAtSecond : openedAtFirst
        (visit.firstFrame, visit.listed, visit.enumerated, visit.visibleCount, visit.visible) =
            (firstFrame, enumerated.value, enumerated.ms, visible.value, visible.ms)
        visit.tilesLoadedByFirstScreen = lines.lines(named: "tile-loaded").filter { $0.ms <= visible.ms }.count
        visit.visibleLines = lines.lines(named: "visible-thumbnails")

        let pid = process.processIdentifier
        if let quiet = waitUntilQuiet(pid, proxy: proxy, seconds: idleSeconds) {
            visit.idle = quiet
            visit.peakKiB = peakResidentKiB(pid)
        } else if process.isRunning {
            printError("the app was still busy \(Int(idleSeconds)) s after its first screen")
        } else {
            process.waitUntilExit()
            let how = process.terminationReason == .uncaughtSignal ? "killed by signal \(process.terminationStatus)" : "exited with \(process.terminationStatus)"
            visit.ended = how + " before it was idle"
            Thread.sleep(forTimeInterval: 0.5)  // the rest of its stderr
            printError("the app \(how) after its first screen; its last words:\n" + lines.lastOtherLines.joined(separator: "\n"))
        }
        visit.whole = proxy.counts() - before
        visit.tilesLoaded = lines.count(of: "tile-loaded")
        var dates = 0
        visit.datesRead = lines.lines(named: "dates-read").map(\.value)
        for line in lines.lines(named: "dates-read") {
            dates += line.value
            if dates >= photos {
                visit.everyDate = line.ms
                break
            }
        }
        process.terminate()
        process.waitUntilExit()
        session.end()  // GVfs leaves with its bus: the server closes what it had open
        _ = waitUntil({ !Self.sftpSessionOpen(server.sftpLog, from: logStart) }, seconds: 10)
        visit.reads = SftpReadLog(path: server.sftpLog, from: logStart)
        return visit
    }

    /// Waits until the app has used no more than a clock tick of CPU time in each quarter
    /// second and the proxy forwarded nothing, for two seconds; returns when that began, in
    /// ms on the app's clock; nil when not within `seconds`.
    static func waitUntilQuiet(_ pid: Int32, proxy: DelayProxyProcess, seconds: Double) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        var ticks = cpuTicks(ofProcess: pid), counts = proxy.counts(), quiet = 0
        var since = Trace.millisecondsSinceStart(ofProcess: pid) ?? -1
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            guard let nowTicks = cpuTicks(ofProcess: pid) else { return nil }
            let nowCounts = proxy.counts()
            if ticks.map({ nowTicks - $0 <= 1 }) == true && nowCounts == counts {
                quiet += 1
                if quiet >= 8 { return since }
            } else {
                quiet = 0
                since = Trace.millisecondsSinceStart(ofProcess: pid) ?? -1
            }
            (ticks, counts) = (nowTicks, nowCounts)
        }
        return nil
    }

    /// Whether the server's log has a session opened after `offset` and not closed yet.
    static func sftpSessionOpen(_ path: String, from offset: Int) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return text.components(separatedBy: "session opened").count > text.components(separatedBy: "session closed").count
    }

    /// The run's lines for the report.
    func report(_ label: String, photos: Int, sizes: [String: Int]) -> [String] {
        func perPhoto(_ bytes: Int) -> String { ServerStats.size(bytes / max(photos, 1)) }
        var lines = [
            "  \(label): first-frame \(firstFrame) ms, enumerated \(listed) at \(enumerated) ms, visible-thumbnails \(visibleCount) at \(visible) ms"
                + (everyDate >= 0 ? ", every date read at \(everyDate) ms" : ", the dates read did not add up to every photo")
                + (idle >= 0 ? ", idle at \(idle) ms" : "") + (ended.map { ", the app \($0)" } ?? ""),
            "    from the server (proxy): until enumerated \(ServerStats.size(untilEnumerated.toClient)) (\(perPhoto(untilEnumerated.toClient)) a photo); "
                + "until the first screen \(ServerStats.size(untilFirstScreen.toClient)) (\(perPhoto(untilFirstScreen.toClient)) a photo); "
                + "until \(ended == nil ? "idle" : "it ended") \(ServerStats.size(whole.toClient)) (\(perPhoto(whole.toClient)) a photo); to the server \(ServerStats.size(whole.toServer)); "
                + "\(whole.connections) connection\(whole.connections == 1 ? "" : "s")",
            "    the server's sftp log: " + reads.description + ", \(filesOpenedByFirstScreen) files opened by the first screen, "
                + "\(reads.readWhole(sizes)) read whole, \(reads.foldersListed) folder listing\(reads.foldersListed == 1 ? "" : "s")",
            "    tiles loaded: \(tilesLoadedByFirstScreen) by the first screen, \(tilesLoaded) in all" + (peakKiB > 0 ? "; peak RSS \(peakKiB / 1024) MiB" : ""),
        ]
        if visibleLines.count > 1 {
            lines.append("    visible-thumbnails lines by then: " + visibleLines.map { "\($0.value) at \($0.ms) ms" }.joined(separator: ", "))
        }
        if datesRead.count <= 12 {
            lines.append("    dates-read lines: " + datesRead.map(String.init).joined(separator: ", "))
        }
        func names(_ paths: [String]) -> String { paths.prefix(3).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " ") }
        let part = reads.readInPart(sizes)
        if part.files > 0 {
            lines.append("    read in part: \(part.files) files, \(ServerStats.size(part.medianBytes)) each (median)")
        }
        let again = reads.openedAgain
        if !again.isEmpty {
            lines.append("    opened more than once: \(again.count) files, e.g. " + names(again))
        }
        if reads.filesOpened > 0 && reads.filesOpened < 20 {
            lines.append("    opened: " + reads.files.keys.sorted().map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " "))
        }
        return lines
    }
}
