import CGtk
import PhotoCore
import PhotoIO

/// Over a web photo in the viewer while its original downloads: a ring filling up, and how
/// far it has come in words ("45% · 1.2 MB of 2.7 MB"). The thumbnail shows beneath it.
@MainActor
final class DownloadIndicator {
    let root: Widget
    private let ring = DownloadRing(diameter: 64)
    private let label: Widget
    /// Below the viewer's message when a download failed and trying again may work.
    private let retryButton: Widget
    var onRetry: () -> Void = {}

    init(over overlay: Widget) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_can_target(root, 0)
        label = gtk_label_new(nil)
        gtk_widget_add_css_class(label, "download-label")
        gtk_widget_add_css_class(label, "numeric")
        gtk_box_append(root.cast(), ring.root)
        gtk_box_append(root.cast(), label)
        gtk_widget_set_visible(root, 0)
        gtk_overlay_add_overlay(overlay.cast(), root)

        retryButton = gtk_button_new_with_mnemonic(tr("_Retry"))
        Accessible.name(retryButton, mnemonic: tr("_Retry"))
        gtk_widget_add_css_class(retryButton, "pill")
        gtk_widget_add_css_class(retryButton, "suggested-action")
        gtk_widget_set_halign(retryButton, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(retryButton, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(retryButton, 140)
        gtk_widget_set_visible(retryButton, 0)
        gtk_overlay_add_overlay(overlay.cast(), retryButton)
        onSignal(retryButton, "clicked") { [weak self] in self?.onRetry() }
    }

    /// Offers Retry (a download that failed and may work when tried again) or not.
    func offerRetry(_ offered: Bool) {
        gtk_widget_set_visible(retryButton, offered ? 1 : 0)
    }

    /// Shows a download's progress; nil hides the indicator.
    func show(_ progress: DownloadProgress?) {
        gtk_widget_set_visible(root, progress == nil ? 0 : 1)
        guard let progress else { return }
        ring.show(progress)
        Texts.setText(label: label, ShownText(Self.describe(progress)))
    }

    /// "45% · 1.2 MB of 2.7 MB", or "1.2 MB" when the total is unknown, or "Connecting…"
    /// before the server answered.
    static func describe(_ progress: DownloadProgress) -> String {
        // Asked, and nothing answered yet.
        if progress.received == 0 && progress.total == nil { return tr("Connecting…") }
        let received = formatSize(progress.received)
        guard let total = progress.total, total > 0, let fraction = progress.fraction else { return received }
        return tr("%1$d%% · %2$s of %3$s", Int((fraction * 100).rounded(.down)), received, formatSize(total))
    }

    private static func formatSize(_ bytes: Int64) -> String {
        guard let text = g_format_size(guint64(max(0, bytes))) else { return "\(bytes)" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
