import CGdkPixbuf
import Glibc
import PhotoCore

extension PhotoMarksStore {
    /// Those of `uris` that have a sidecar where `sidecarPaths` looks (`NAME.EXT.xmp` or
    /// `NAME.xmp` beside a local photo, or the app's own), found by reading the names in each
    /// folder once, and in the app's folder once: a look per photo at each of its three places
    /// took a folder of 100,000 photos 300,000 system calls, for sidecars that are rare. A
    /// folder that cannot be read keeps every photo of it (each is looked at as before).
    /// Blocking I/O: on a worker.
    public func withSidecars(among uris: [String]) -> Set<String> {
        var found = Set<String>()
        let appNames = Self.sidecarNames(inFolderAt: appFolder) ?? []
        if !appNames.isEmpty {
            for uri in uris where appNames.contains(MD5.hex(uri) + ".xmp") { found.insert(uri) }
        }
        var byFolder: [Substring: [String]] = [:]
        for uri in uris where uri.hasPrefix("file://") {
            guard let slash = uri.lastIndex(of: "/") else { continue }
            byFolder[uri[...slash], default: []].append(uri)
        }
        for (folderURI, photos) in byFolder {
            guard let path = Self.localPath(String(folderURI)), let names = Self.sidecarNames(inFolderAt: path) else {
                found.formUnion(photos)
                continue
            }
            guard !names.isEmpty else { continue }
            // Each name escaped as a URI spells it, after the photos' own folder as they spell it.
            let sidecars = Set(names.map { String(folderURI) + Self.uri(ofPath: "/" + $0).dropFirst("file:///".count) })
            found.formUnion(SidecarNames.photos(reading: sidecars, among: photos))
        }
        return found
    }

    /// The names in the folder at `path` that end in `.xmp` (`SidecarNames.isSidecar`), nil
    /// when it cannot be read.
    static func sidecarNames(inFolderAt path: String) -> [String]? {
        guard let folder = opendir(path) else { return errno == ENOENT ? [] : nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = LocalFolderReader.name(of: entry)
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: strlen(name))
            // ".xmp" in any case, as `SidecarNames.isSidecar` takes it, with no string made for
            // every other name.
            guard bytes.count > 4, zip(bytes[(bytes.count - 4)...], ".xmp".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { continue }
            names.append(String(decoding: bytes, as: UTF8.self))
        }
        return names
    }
}
