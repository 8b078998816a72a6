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
    let root: Widget
    private let label: Widget
    private let retryButton: Widget
    /// Decoding became available again.
    var onAvailable: () -> Void = {}

    init() {
        root = gtk_revealer_new()
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(bar, "offline-banner")
        label = gtk_label_new(nil)
        gtk_label_set_wrap(label.cast(), 1)
        gtk_label_set_xalign(label.cast(), 0)
        gtk_widget_set_hexpand(label, 1)
        retryButton = gtk_button_new_with_mnemonic(tr("_Retry"))!
        Accessible.name(retryButton, mnemonic: tr("_Retry"))
        gtk_widget_set_valign(retryButton, GTK_ALIGN_CENTER)
        gtk_box_append(bar.cast(), label)
        gtk_box_append(bar.cast(), retryButton)
        gtk_revealer_set_child(root.cast(), bar)
        onSignal(retryButton, "clicked") { IsolatedDecoder.shared.retry() }
        Self.banners.removeAll { $0.banner == nil }
        Self.banners.append(Weak(banner: self))
        show(IsolatedDecoder.shared.availability)
    }

    private func show(_ availability: DecoderStarts.Availability) {
        if IsolatedDecoder.shared.decodesInBrowser {
            Texts.setText(label: label, ShownText(tr("Photos are decoded inside the browser, unconfined, because GPHOTOBROWSE_DECODE_IN_BROWSER=1 is set: for development only.")))
            gtk_widget_set_visible(retryButton, 0)
            gtk_revealer_set_reveal_child(root.cast(), 1)
            return
        }
        switch availability {
        case .available:
            gtk_revealer_set_reveal_child(root.cast(), 0)
        case .unavailable(let reason):
            // The reason comes from the system (a program's error): outside text.
            Texts.setText(label: label, ShownText(tr("Photos are not shown: the separate process that reads them safely does not start (%s). Trying again…",
                                                     OutsideText(reason))))
            gtk_revealer_set_reveal_child(root.cast(), 1)
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
