/// What Set as Background decides, apart from the calls that carry it out (the app's
/// `SetAsBackground`: libportal, GSettings): where the photo goes, what the desktop portal's
/// answer means (set, cancelled by the person, refused, or no portal: GNOME's own settings
/// instead), which of GNOME's keys a place sets, and what the person is told.
public enum DesktopBackground {
    /// Where the photo goes: the Wallpaper portal's `set-on` values.
    public enum Place: String, Sendable, CaseIterable {
        case background, lockscreen, both

        /// Whether the desktop's background is set.
        public var setsBackground: Bool { self != .lockscreen }
        /// Whether the lock screen's picture is set.
        public var setsLockScreen: Bool { self != .background }
    }

    /// How the portal's call ended, as libportal reports it.
    public struct PortalAnswer: Sendable, Equatable {
        /// The call succeeded.
        public var done: Bool
        /// It ended cancelled (G_IO_ERROR_CANCELLED): by the person in the desktop's dialog,
        /// or by us when it did not answer in time.
        public var cancelled: Bool
        /// The portal answered that it failed (G_IO_ERROR_FAILED): it is there, and said no.
        public var refused: Bool
        /// We gave up waiting and cancelled the call.
        public var gaveUp: Bool

        public init(done: Bool = false, cancelled: Bool = false, refused: Bool = false, gaveUp: Bool = false) {
            self.done = done
            self.cancelled = cancelled
            self.refused = refused
            self.gaveUp = gaveUp
        }
    }

    /// What to do once the portal's call ended.
    public enum Outcome: Sendable, Equatable {
        /// It is set: say so.
        case set
        /// The person cancelled in the desktop's own dialog: nothing to say.
        case cancelledByPerson
        /// The desktop said no: say it did not set the background.
        case refused
        /// No portal took it (none running, no Wallpaper interface, no answer in time): set
        /// GNOME's settings instead.
        case useSettings
    }

    /// What `answer` means.
    public static func outcome(of answer: PortalAnswer) -> Outcome {
        if answer.done { return .set }
        if answer.cancelled && !answer.gaveUp { return .cancelledByPerson }
        if answer.refused { return .refused }
        return .useSettings
    }

    /// How long the portal has to answer (past D-Bus's own 25 s for the call itself) before
    /// GNOME's settings are tried, in milliseconds: `given` (tests set it) when it is a
    /// number above zero, else 40 s.
    public static func portalPatience(given: String?) -> UInt32 {
        if let given, let milliseconds = UInt32(given), milliseconds > 0 { return milliseconds }
        return 40_000
    }

    /// One of GNOME's settings keys to set to the photo's URI.
    public struct SettingsKey: Sendable, Equatable {
        public let schema: String
        public let key: String
        /// Whether the desktop must have it: `picture-uri-dark` is GNOME 42's, and an older
        /// desktop has one picture for both styles.
        public let isRequired: Bool
    }

    /// The keys `place` sets, in order.
    public static func settingsKeys(for place: Place) -> [SettingsKey] {
        var keys: [SettingsKey] = []
        if place.setsBackground {
            keys.append(SettingsKey(schema: "org.gnome.desktop.background", key: "picture-uri", isRequired: true))
            keys.append(SettingsKey(schema: "org.gnome.desktop.background", key: "picture-uri-dark", isRequired: false))
        }
        if place.setsLockScreen {
            keys.append(SettingsKey(schema: "org.gnome.desktop.screensaver", key: "picture-uri", isRequired: true))
        }
        return keys
    }

    /// What the person is told once the photo named `name` is on `place`.
    public static func confirmation(_ place: Place, name: String) -> String {
        switch place {
        case .background: tr("“%s” is the background now", name)
        case .lockscreen: tr("“%s” is on the lock screen now", name)
        case .both: tr("“%s” is the background and on the lock screen now", name)
        }
    }
}
