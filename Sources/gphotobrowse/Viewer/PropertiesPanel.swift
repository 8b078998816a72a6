import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The viewer's side panel: what is known about the shown photo, as labelled lines
/// (name, folder, size, dimensions, date taken, camera, lens, exposure, location …). It
/// slides in from the right; its state is the `viewer.properties` action's, which the
/// toolbar's toggle shows.
@MainActor
final class PropertiesPanel {
    /// The revealer that slides the panel in and out.
    let root: Widget
    private let grid: Widget
    /// `viewer.properties`: a boolean state, changed by the toggle, Alt+Enter and the header bar.
    let action: OwnedObject<OpaquePointer>
    /// The panel was opened: the viewer loads the shown photo's details.
    var onShown: () -> Void = {}
    /// How long paging must rest before the shown photo's details are read (ms): paging
    /// through a folder with the panel open reads only the photos stopped at.
    static let settleDelay: UInt32 = 150
    private var settleTimer: UInt32 = 0
    /// The reading under way, cancelled when another photo is shown or the viewer closes.
    private var reading: CancellationFlag?
    /// Where the details being read go.
    private var loaded: (PhotoDetails) -> Void = { _ in }

    init() {
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(scroller, 300, -1)
        gtk_widget_add_css_class(scroller, "properties-panel")
        grid = gtk_grid_new()
        gtk_grid_set_row_spacing(grid.cast(), 8)
        gtk_grid_set_column_spacing(grid.cast(), 12)
        gtk_widget_set_margin_start(grid, 18)
        gtk_widget_set_margin_end(grid, 18)
        gtk_widget_set_margin_top(grid, 18)
        gtk_widget_set_margin_bottom(grid, 18)
        gtk_scrolled_window_set_child(scroller.cast(), grid)

        root = gtk_revealer_new()
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_LEFT)
        gtk_revealer_set_child(root.cast(), scroller)
        gtk_revealer_set_reveal_child(root.cast(), 0)

        action = OwnedObject(taking: g_simple_action_new_stateful("properties", nil, g_variant_new_boolean(0)).cast())
        onSignal(action.pointer, "change-state", pointer: { [weak self] value in
            guard let self, let value else { return }
            self.setShown(g_variant_get_boolean(value.cast()) != 0)
        })
    }

    var isShown: Bool { gtk_revealer_get_reveal_child(root.cast()) != 0 }

    /// Opens or closes the panel.
    func setShown(_ shown: Bool) {
        g_simple_action_set_state(action.pointer.cast(), g_variant_new_boolean(shown ? 1 : 0))
        gtk_revealer_set_reveal_child(root.cast(), shown ? 1 : 0)
        if shown { onShown() }
    }

    /// Reads `uri`'s details (in a decoder process, as a job of `jobs`) once paging has
    /// rested for `settleDelay`, and hands them to `loaded` on the main thread; the photo
    /// shown before, waited for or being read, is let go.
    func load(_ uri: String, jobs: WindowJobs, loaded: @escaping (PhotoDetails) -> Void) {
        stopLoading()
        self.loaded = loaded
        settleTimer = after(milliseconds: Self.settleDelay) { [weak self] in
            guard let self else { return }
            self.settleTimer = 0
            let reading = CancellationFlag()
            self.reading = reading
            if Trace.tilesEnabled { Trace.milestone("properties-requested") }
            let owner = MainThreadOwner(self)
            let lane = uri.hasPrefix("file:") ? nil : DecodePool.downloadLane(of: uri)
            // Dropped unread when the page turns before its turn.
            _ = jobs.submit(to: .details, priority: 0, lane: lane, within: reading) { flag in
                let details = IsolatedDecoder.shared.properties(uri: uri, cancellation: flag)
                guard !flag.isCancelled else { return }
                owner.onMain { panel in
                    guard panel.reading === reading else { return }
                    panel.reading = nil
                    panel.loaded(details)
                }
            }
        }
    }

    /// Lets go of the photo whose details are waited for or read.
    func stopLoading() {
        if settleTimer != 0 { g_source_remove(settleTimer) }
        settleTimer = 0
        reading?.cancel()
        reading = nil
    }

    /// Shows these lines, replacing the previous photo's.
    func show(_ rows: [(label: String, value: String)]) {
        while let child = gtk_widget_get_first_child(grid) { gtk_grid_remove(grid.cast(), child) }
        for (n, row) in rows.enumerated() {
            let label = Texts.label(ShownText(row.label))
            gtk_widget_add_css_class(label, "dim-label")
            gtk_label_set_xalign(label.cast(), 1)
            gtk_widget_set_valign(label, GTK_ALIGN_START)
            let value = Texts.label(ShownText(OutsideText(row.value)))
            gtk_label_set_xalign(value.cast(), 0)
            gtk_label_set_wrap(value.cast(), 1)
            gtk_label_set_wrap_mode(value.cast(), PANGO_WRAP_WORD_CHAR)
            gtk_label_set_selectable(value.cast(), 1)
            gtk_label_set_max_width_chars(value.cast(), 28)
            gtk_grid_attach(grid.cast(), label, 0, Int32(n), 1, 1)
            gtk_grid_attach(grid.cast(), value, 1, Int32(n), 1, 1)
        }
    }
}
