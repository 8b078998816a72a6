import Foundation
import PhotoCore
import PhotoIO

/// `walk [--passes N] DIR`: the app's tree walk without its window, beside `find`: the walk
/// alone (`FolderTreeWalk`, delivering to nothing), then the walk feeding the albums'
/// model (`FolderTree`) as the app's worker and main thread do, each timed over a few
/// passes on a warm tree, All Photos' list made from the whole tree at once (a listing's
/// hand-over on the main thread), and every photo's date taken set in the tree and that list
/// at once (a folder opened again, its dates from the cache). Shows what the albums
/// benchmark's "every album" figure is made of once the window's start-up is set aside.
enum WalkCommand: BenchCommand {
    static let name = "walk"
    static let arguments = "[--passes N] DIR"
    static let summary = "the tree walk and the albums it makes, without a window, beside find"

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = options(arguments, numbers: ["--passes": (3, 1)], takesOperands: true) else { return 2 }
        guard options.operands.count == 1 else { return usageError("give one folder") }
        let path = URL(fileURLWithPath: options.operands[0]).standardizedFileURL.path
        let uri = FileStatus.uri(forCommandLineArgument: path)
        let passes = options.number("--passes")

        var findTimes: [Double] = [], walkTimes: [Double] = [], treeTimes: [Double] = [], listTimes: [Double] = []
        var handOverTimes: [Double] = [], datesTimes: [Double] = []
        var photos = 0, albums = 0
        for _ in 0..<passes {
            findTimes.append(time { spawnQuietly("/usr/bin/find", [path, "-type", "f"]) })
            walkTimes.append(time {
                if case .success(let totals) = FolderTreeWalk(uri: uri).run(deliver: { _ in }) { photos = totals.photos }
            })
            var tree = FolderTree(rootURI: uri, rootName: URL(fileURLWithPath: path).lastPathComponent)
            treeTimes.append(time {
                _ = FolderTreeWalk(uri: uri).run(deliver: { batches in _ = tree.insert(batches) })
            })
            albums = tree.albums.count
            let everyPhoto = tree.photos(in: .allPhotos)
            var list = PhotoList(order: .newestFirst)
            handOverTimes.append(time { _ = list.insert(everyPhoto) })
            // Every photo's date taken at once, as a folder opened again gets them from the cache.
            var dates: [String: Int64?] = [:]
            for (n, photo) in everyPhoto.enumerated() { dates[photo.id] = 1_600_000_000_000_000 + Int64(n % 9973) * 1_000_003 }
            datesTimes.append(time {
                _ = tree.setDatesTaken(dates)
                _ = list.setDatesTaken(dates)
            })
            var fedTree = FolderTree(rootURI: uri, rootName: "")
            var allPhotos = PhotoList(order: .newestFirst)
            listTimes.append(time {
                _ = FolderTreeWalk(uri: uri).run(deliver: { batches in
                    let change = fedTree.insert(batches)
                    _ = allPhotos.insert(change.insertedPhotos(in: .allPhotos))
                })
            })
        }
        func ms(_ times: [Double]) -> String {
            let sorted = times.sorted()
            return "\(Int(sorted[sorted.count / 2] * 1000)) ms (best \(Int(sorted[0] * 1000)))"
        }
        print("walk: \(photos) photos, \(albums) albums in the switcher (All Photos included), \(passes) passes, medians")
        print("  find DIR -type f                 \(ms(findTimes))")
        print("  walk alone                       \(ms(walkTimes))")
        print("  walk into the albums' model      \(ms(treeTimes))")
        print("  … and All Photos' list, newest first \(ms(listTimes))")
        print("  All Photos' list made at once    \(ms(handOverTimes))")
        print("  … every date taken set at once   \(ms(datesTimes))")
        return 0
    }
}
