import Foundation
import Glibc

/// A folder of many photos that costs little disk: `count` hard links (`photo-000000.jpg`…)
/// to 8 small JPEGs of distinct colours made beside the folder, with `sidecar` written as
/// `NAME.jpg.xmp` for every `sidecarEvery`th photo when given.
enum LinkedPhotoFolder {
    static func make(_ folder: String, count: Int, sidecar: (text: String, every: Int)? = nil) -> Bool {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            printError("cannot make \(folder): \(error)")
            return false
        }
        var sources: [String] = []
        for n in 0..<8 {
            let path = folder + "/../source-\(n).jpg"
            guard writeSolidJPEG(path, rgba: UInt32(0x2040_80FF) &+ UInt32(n) &* 0x1F_2B3D_00) else { return false }
            sources.append(path)
        }
        for i in 0..<count {
            let name = folder + String(format: "/photo-%06d.jpg", i)
            guard link(sources[i % sources.count], name) == 0 else {
                printError("cannot link photo \(i): \(String(cString: strerror(errno)))")
                return false
            }
            if let sidecar, i % sidecar.every == 0,
               !FileManager.default.createFile(atPath: name + ".xmp", contents: Data(sidecar.text.utf8)) {
                printError("cannot write the sidecar of photo \(i)")
                return false
            }
        }
        return true
    }
}
