import CIntl
import Foundation

/// The app's message catalogs (gettext, domain `gphotobrowse`): every string a person reads
/// is marked with `tr` or `trn` and translated through them.
///
/// ```swift
/// tr("Open Folder…")
/// tr("Delete “%s” Permanently?", name)
/// trn("%d photo", "%d photos", count, count)
/// ```
///
/// Marked strings are literals (`StaticString`), so `xgettext` finds them all (see
/// `po/POTFILES`); values go in through printf-style placeholders, which translators may
/// reorder (`%2$s … %1$s`) and `msgfmt --check` verifies.
public enum Localization {
    public static let domain = "gphotobrowse"
    /// The environment variable that names the catalogs' folder, overriding the search.
    public static let catalogVariable = "GPHOTOBROWSE_LOCALEDIR"

    /// Sets the locale from the environment and binds the catalogs found in `directory`
    /// (`LANG/LC_MESSAGES/gphotobrowse.mo` below it); call once, first thing.
    public static func start(catalogs directory: String?) {
        setlocale(LC_ALL, "")
        if let directory { bindtextdomain(domain, directory) }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// Where the catalogs are, for an executable at `executable`: `GPHOTOBROWSE_LOCALEDIR`
    /// when set, else a `locale` folder beside it (build trees: `build-aux/run.sh` compiles
    /// them there), else meson's build tree (`po/` beside it), else `../share/locale` when
    /// installed.
    public static func catalogDirectory(executable: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment[catalogVariable], !given.isEmpty { return given }
        let folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent("locale"),
            folder.appendingPathComponent("po"),
            folder.deletingLastPathComponent().appendingPathComponent("share/locale"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }?.path
    }
}

/// A value put into a translated message's placeholder: text for `%s`, a number for `%d`
/// (written with the locale's digit grouping).
public protocol MessageValue {
    var messageText: String { get }
}

extension String: MessageValue {
    public var messageText: String { self }
}

extension Int: MessageValue {
    public var messageText: String { formatted() }
}

/// The translation of `message`.
public func tr(_ message: StaticString) -> String {
    message.withCString { String(cString: dgettext(Localization.domain, $0)) }
}

/// The translation of `template` with its placeholders filled with `values`.
public func tr(_ template: StaticString, _ values: any MessageValue...) -> String {
    fillPlaceholders(tr(template), values)
}

/// The translation of `singular` or `plural`, as the language's plural rules choose for
/// `count`, with its placeholders filled with `values`.
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int, _ values: any MessageValue...) -> String {
    let chosen = singular.withCString { one in
        plural.withCString { many in String(cString: dngettext(Localization.domain, one, many, UInt(max(0, count)))) }
    }
    return fillPlaceholders(chosen, values)
}

extension StaticString {
    /// Calls `body` with the literal as a C string: a literal of several characters is stored
    /// NUL-terminated, one of a single character is not.
    fileprivate func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        guard hasPointerRepresentation else { return description.withCString(body) }
        return body(UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self))
    }
}

/// Fills printf-style placeholders: `%s` and `%d` take the next value, `%1$s` (any digit
/// before `$`) the value at that position, `%%` is a percent sign. A placeholder without a
/// value is left as it is (a translation that asks for more than there is shows it, rather
/// than crashing).
public func fillPlaceholders(_ template: String, _ values: [any MessageValue]) -> String {
    guard template.contains("%") else { return template }
    var out = ""
    var next = 0
    var characters = template[...]
    while let percent = characters.firstIndex(of: "%") {
        out += characters[..<percent]
        var rest = characters[characters.index(after: percent)...]
        if rest.first == "%" {
            out += "%"
            characters = rest.dropFirst()
            continue
        }
        var position: Int?
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
            position = Int(digits).map { $0 - 1 }
            rest = rest.dropFirst(digits.count + 1)
        }
        guard let conversion = rest.first, conversion == "s" || conversion == "d" else {
            out += "%"
            characters = characters[characters.index(after: percent)...]
            continue
        }
        let index = position ?? next
        if position == nil { next += 1 }
        if index >= 0, index < values.count {
            out += values[index].messageText
        } else {
            out += characters[percent..<rest.index(after: rest.startIndex)]
        }
        characters = rest.dropFirst()
    }
    out += characters
    return out
}
