import CGtk
import PhotoCore
import PhotoIO

/// A bar under the header bar saying why photos are not shown while no decoder process
/// starts (nothing is decoded in the browser instead: tiles say "Could not be decoded
/// safely"), with Retry; it goes when decoding is available again, and the window's tiles
/// ask again. With the development switch `GPHOTOBROWSE_DECODE_IN_BROWSER=1`, it says for as
/// long as the window is open that photos are decoded unconfined.
@MainActor
final class DecodingBanner {
    private let bar = InfoBar()
    var root: Widget { bar.root }
    /// Decoding became available again.
    var onAvailable: () -> Void = {}

    init() {
        Self.banners.removeAll { $0.banner == nil }
        Self.banners.append(Weak(banner: self))
        show(IsolatedDecoder.shared.availability)
    }

    private func show(_ availability: DecoderStarts.Availability) {
        if IsolatedDecoder.shared.decodesInBrowser {
            bar.show(ShownText(tr("Photos are decoded inside the browser, unconfined, because GPHOTOBROWSE_DECODE_IN_BROWSER=1 is set: for development only.")), retry: nil)
            return
        }
        switch availability {
        case .available:
            bar.hide()
        case .unavailable(let reason):
            // The reason comes from the system (a program's error): outside text.
            bar.show(ShownText(tr("Photos are not shown: the separate process that reads them safely does not start (%s). Trying again…",
                                  OutsideText(reason))), retry: { IsolatedDecoder.shared.retry() })
        }
    }

    // MARK: Every window's banner follows the decoder

    private struct Weak { weak var banner: DecodingBanner? }
    private static var banners: [Weak] = []

    /// Has every banner follow the decoder's availability (once, when the app starts).
    static func follow(_ decoder: IsolatedDecoder) {
        decoder.observeAvailability { availability in
            onMain {
                for entry in banners {
                    guard let banner = entry.banner else { continue }
                    banner.show(availability)
                    if availability == .available { banner.onAvailable() }
                }
            }
        }
    }
}
