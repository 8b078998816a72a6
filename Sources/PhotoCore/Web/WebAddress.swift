/// Addresses on the web (http and https), which the app fetches itself rather than through
/// GIO.
public enum WebAddress {
    /// Whether `uri` is a web address: it starts with `http://` or `https://`, in any case.
    public static func isWebAddress(_ uri: String) -> Bool {
        let lowered = uri.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}

extension WebAddress {
    /// `address` with the bytes an address may not hold percent-escaped (white space,
    /// control characters, `"<>\^`{|}` and everything beyond ASCII, as UTF-8), which lists
    /// written by hand and web pages do hold ("my photo.jpg"); escapes already there stay.
    public static func escapingUnsafeCharacters(_ address: String) -> String {
        let unsafe: Set<UInt8> = Set(#""<>\^`{|}"#.utf8)
        guard address.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || unsafe.contains($0) }) else { return address }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(address.utf8.count + 16)
        for byte in address.utf8 {
            if byte <= 0x20 || byte >= 0x7F || unsafe.contains(byte) {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
