import PhotoCore
import Testing

@Suite struct RecentFolderTests {
    private func folder(_ name: String, _ visited: Int64, scheme: String = "file") -> RecentFolder {
        RecentFolder(uri: "\(scheme):///photos/\(name)", name: name, visited: visited)
    }

    @Test func listsTheNewestFirstAndAFewOnly() {
        let folders = (1...8).map { folder("f\($0)", Int64($0)) }
        let listed = RecentFolder.toList(folders.shuffled(), limit: 5) { _ in true }
        #expect(listed.map(\.name) == ["f8", "f7", "f6", "f5", "f4"])
    }

    @Test func leavesOutFoldersThatAreGoneAndAsksNoMoreThanNeeded() {
        let folders = (1...6).map { folder("f\($0)", Int64($0)) }
        var asked: [String] = []
        let listed = RecentFolder.toList(folders, limit: 2) { folder in
            asked.append(folder.name)
            return folder.name != "f5"
        }
        #expect(listed.map(\.name) == ["f6", "f4"])
        #expect(asked == ["f6", "f5", "f4"])
    }

    @Test func listsEachFolderOnce() {
        let listed = RecentFolder.toList([folder("a", 1), folder("a", 3), folder("b", 2)]) { _ in true }
        #expect(listed.map(\.name) == ["a", "b"])
        #expect(listed.first?.visited == 3)
    }

    @Test func tellsLocalFoldersFromOthers() {
        #expect(folder("a", 1).isLocal)
        #expect(!folder("a", 1, scheme: "sftp").isLocal)
        #expect(RecentFolder(uri: "FILE:///x", name: "x", visited: 0).isLocal)
    }
}
