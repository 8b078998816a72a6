import CGtk
import Foundation
import PhotoCore

/// Short messages at the bottom of the window ("3 photos moved to the trash — Undo"), on
/// libadwaita's toast overlay, which queues them and hides each after its timeout.
@MainActor
final class Toasts {
    /// The overlay; its child is the window's content.
    let root: Widget
    /// The toast that offers an action, so that it can be withdrawn while it is there. Weak:
    /// the overlay decides how long a toast lives, and a toast it let go is nil here.
    private var actionable: WeakObject<OpaquePointer>?

    init() {
        root = adw_toast_overlay_new()
    }

    func setChild(_ child: Widget) { adw_toast_overlay_set_child(root.cast(), child) }

    /// Shows `text`, with a button labelled `actionLabel` running `action`, for `seconds`.
    func show(_ text: String, actionLabel: String? = nil, seconds: UInt32 = 6, action: (@MainActor () -> Void)? = nil) {
        if Trace.tilesEnabled { Trace.milestone("toast", text: text.replacingOccurrences(of: "\n", with: " ")) }
        let toast = Texts.toast(ShownText(text))
        LiveObjects.track(toast)
        adw_toast_set_timeout(toast, seconds)
        // A newer message replaces the one shown rather than waiting behind it.
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        if let actionLabel, let action {
            adw_toast_set_button_label(toast, actionLabel)
            onSignal(toast, "button-clicked") { action() }
            dismissActionable()
            actionable = WeakObject(toast)
        }
        // The overlay takes the toast's only reference.
        adw_toast_overlay_add_toast(root.cast(), toast)
    }

    /// Withdraws the toast offering an action (its action was taken another way, e.g. Ctrl+Z).
    func dismissActionable() {
        guard let toast = actionable else { return }
        actionable = nil
        toast.withObject { adw_toast_dismiss($0) }
    }
}
