import CGtk
import PhotoCore

/// A slideshow in the viewer (F5, the toolbar's button): full screen with nothing over the
/// photo, a photo every interval (a video for its length, muted as the viewer plays it), Space to pause, any other key or a click to end it on the
/// photo shown.
///
/// The core's `SlideshowModel` decides; this class feeds it the timer's ticks, the images
/// the viewer decoded and the person's input, and carries out its effects. The next photo
/// is the viewer's next neighbour, which the viewer decodes ahead anyway; when looping from
/// the last photo to the first, the first is decoded ahead on purpose
/// (`ViewerImages.preload`). A photo shows only once its image is decoded, so no
/// transition shows a blank. While it runs, the window's shortcuts are held back: every
/// key is the slideshow's.
@MainActor
final class Slideshow {
    private let live = LiveObjects.Token("Slideshow")
    private weak var viewer: PhotoViewer?
    private var model = SlideshowModel(count: 0, current: 0)
    private var timer: UInt32 = 0
    /// The photo the model waits for, by index and id (an album changing moves indices).
    private var awaited: (index: Int, id: String)?
    /// Controllers on the window, taking every key and click while the slideshow runs.
    private var input: (window: Widget, keys: OpaquePointer, clicks: OpaquePointer)?
    /// The window's shortcut controllers held back meanwhile, and their phases.
    private var heldBack: [(controller: OwnedObject<OpaquePointer>, phase: GtkPropagationPhase)] = []
    private var wasFullscreen = false

    init(viewer: PhotoViewer) {
        self.viewer = viewer
        viewer.contents.observeChanges { [weak self] _ in self?.albumChanged() }
    }

    var isRunning: Bool { model.isRunning }

    /// Starts on the photo shown, with the interval and ending chosen last.
    func start() {
        guard let viewer, !model.isRunning, let index = viewer.index else { return }
        model = SlideshowModel(count: viewer.contents.photos.count, current: index,
                               interval: SlideshowSettings.interval, ending: SlideshowSettings.ending)
        wasFullscreen = viewer.chrome.isFullscreen
        viewer.chrome.present(true)
        gtk_widget_set_cursor_from_name(viewer.canvas.widget, "none")
        takeInput(true)
        carryOut(model.start())
    }

    /// Ends on the photo shown (a key, a click, the viewer closing).
    func stop() { carryOut(model.stop()) }

    /// The viewer has an image, or a failure, for the photo `id`.
    func imageChanged(_ id: String) {
        guard model.isRunning, let awaited, awaited.id == id, viewer?.images.isSettled(id) == true else { return }
        self.awaited = nil
        carryOut(model.imageReady(awaited.index))
    }

    /// A video shown by the slideshow started playing: it plays through before the next photo.
    func videoStarted(_ index: Int, seconds: Int) {
        carryOut(model.movieStarted(index, seconds: seconds))
    }

    /// A video shown by the slideshow ended, or could not play.
    func videoEnded(_ index: Int) {
        carryOut(model.movieEnded(index))
    }

    private func albumChanged() {
        guard model.isRunning, let viewer else { return }
        carryOut(model.follow(current: viewer.index, count: viewer.contents.photos.count))
    }

    private func carryOut(_ effects: [SlideshowModel.Effect]) {
        for effect in effects {
            switch effect {
            case .show(let index):
                viewer?.show(index, entering: true)
                Trace.milestone("slideshow-photo", index)
            case .startTimer(let seconds):
                cancelTimer()
                timer = after(milliseconds: UInt32(seconds) * 1000) { [weak self] in
                    guard let self else { return }
                    self.timer = 0
                    self.carryOut(self.model.tick())
                }
            case .stopTimer:
                cancelTimer()
            case .preload(let index):
                preload(index)
            case .paused:
                viewer?.chrome.showBadge(tr("Slideshow Paused"))
                Trace.milestone("slideshow-paused", model.current)
            case .resumed:
                viewer?.chrome.showBadge(tr("Slideshow Resumed"))
                Trace.milestone("slideshow-resumed", model.current)
            case .end(let index):
                finish(at: index)
            }
        }
    }

    /// Has the photo at `index` decoded, and tells the model when it is (at once if it is).
    private func preload(_ index: Int) {
        guard let viewer, index >= 0, index < viewer.contents.photos.count else { return }
        let photo = viewer.contents.photos[index]
        if photo.isNotFound || viewer.images.isSettled(photo.id) {
            awaited = nil
            return carryOut(model.imageReady(index))
        }
        awaited = (index, photo.id)
        // The neighbour window decodes the next photo already; this adds the first one
        // when looping back to it.
        viewer.images.preload(photo)
    }

    private func cancelTimer() {
        if timer != 0 { g_source_remove(timer) }
        timer = 0
    }

    private func finish(at index: Int) {
        cancelTimer()
        awaited = nil
        takeInput(false)
        guard let viewer else { return }
        gtk_widget_set_cursor(viewer.canvas.widget, nil)
        viewer.chrome.present(false, fullscreenAfter: wasFullscreen)
        Trace.milestone("slideshow-ended", index)
    }

    // MARK: Input

    /// While the slideshow runs, a key controller and a click gesture on the window take
    /// every key and click before anything else, and the window's shortcut controllers
    /// (the application's accelerators, F10) are held back.
    private func takeInput(_ on: Bool) {
        if on, input == nil, let viewer, let root = gtk_widget_get_root(viewer.root) {
            installInput(on: root.widget)
        }
        guard let input else { return }
        let phase = on ? GTK_PHASE_CAPTURE : GTK_PHASE_NONE
        gtk_event_controller_set_propagation_phase(input.keys, phase)
        gtk_event_controller_set_propagation_phase(input.clicks, phase)
        if on {
            holdBackShortcuts(of: input.window)
        } else {
            for (controller, phase) in heldBack { gtk_event_controller_set_propagation_phase(controller.pointer, phase) }
            heldBack.removeAll()
        }
    }

    private func installInput(on window: Widget) {
        let keys = gtk_event_controller_key_new()!
        onKeyPressed(keys) { [weak self, keys] keyval, _ in
            guard let self, self.model.isRunning else { return false }
            // Shift or Ctrl alone is the start of a key, not one.
            if let event = gtk_event_controller_get_current_event(keys), gdk_key_event_is_modifier(event) != 0 { return false }
            if Int32(keyval) == GDK_KEY_space || Int32(keyval) == GDK_KEY_KP_Space {
                self.carryOut(self.model.togglePause())
            } else {
                self.stop()
            }
            return true
        }
        let clicks = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(clicks.cast(), 0)
        onPressed(clicks) { [weak self, clicks] _, _, _ in
            guard let self, self.model.isRunning else { return }
            // Claimed: the viewer's own click (which shows the chrome) does not follow.
            gtk_gesture_set_state(clicks.cast(), GTK_EVENT_SEQUENCE_CLAIMED)
            self.stop()
        }
        // The window holds them; they sleep (phase none) between slideshows.
        for controller in [keys, clicks.cast()] as [OpaquePointer] {
            gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_NONE)
            gtk_widget_add_controller(window, controller)
        }
        input = (window, keys, clicks.cast())
    }

    private func holdBackShortcuts(of window: Widget) {
        guard heldBack.isEmpty, let controllers = gtk_widget_observe_controllers(window) else { return }
        defer { g_object_unref(controllers.raw) }
        for position in 0..<g_list_model_get_n_items(controllers) {
            guard let item = g_list_model_get_item(controllers, position) else { continue }
            let controller = OpaquePointer(item)
            let isShortcuts = g_type_check_instance_is_a(item.assumingMemoryBound(to: GTypeInstance.self), gtk_shortcut_controller_get_type()) != 0
            let phase = gtk_event_controller_get_propagation_phase(controller)
            if isShortcuts, phase != GTK_PHASE_NONE {
                heldBack.append((OwnedObject(sharing: controller), phase))
                gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_NONE)
            }
            g_object_unref(item)
        }
    }
}

// MARK: The viewer's slideshow actions

extension PhotoViewer {
    /// `viewer.slideshow` (start), `viewer.slideshow-interval` (seconds, a radio choice) and
    /// `viewer.slideshow-loop` (a check item), for the toolbar's button and its menu.
    func installSlideshowActions(_ actions: some GObjectPointer) {
        addAction(actions, "slideshow") { [weak self] in self?.startSlideshow() }

        let intType = g_variant_type_new("i")
        let interval = g_simple_action_new_stateful("slideshow-interval", intType, g_variant_new_int32(Int32(SlideshowSettings.interval)))!
        g_variant_type_free(intType)
        onSignal(interval, "change-state", pointer: { [interval] value in
            guard let value else { return }
            let seconds = Int(g_variant_get_int32(value.cast()))
            guard SlideshowModel.intervals.contains(seconds) else { return }
            g_simple_action_set_state(interval, value.cast())
            SlideshowSettings.interval = seconds
        })
        let loop = g_simple_action_new_stateful("slideshow-loop", nil, g_variant_new_boolean(SlideshowSettings.ending == .loop ? 1 : 0))!
        onSignal(loop, "change-state", pointer: { [loop] value in
            guard let value else { return }
            g_simple_action_set_state(loop, value.cast())
            SlideshowSettings.ending = g_variant_get_boolean(value.cast()) != 0 ? .loop : .stop
        })
        for action in [interval, loop] {
            LiveObjects.track(action)
            g_action_map_add_action(actions.cast(), action.cast())
            action.unref()
        }
    }

    /// Starts a slideshow on the photo shown.
    func startSlideshow() {
        if slideshow == nil { slideshow = Slideshow(viewer: self) }
        slideshow?.start()
    }

    /// The slideshow button's menu: the interval, and whether to start again after the last photo.
    static func slideshowMenu() -> OpaquePointer {
        let intervals = g_menu_new()!
        for seconds in SlideshowModel.intervals {
            g_menu_append(intervals, trn("%d Second", "%d Seconds", seconds, seconds), "viewer.slideshow-interval(\(seconds))")
        }
        let ending = g_menu_new()!
        g_menu_append(ending, tr("Start Again After the Last Photo"), "viewer.slideshow-loop")
        let menu = g_menu_new()!
        g_menu_append_section(menu, tr("Each Photo For"), intervals.cast())
        g_menu_append_section(menu, nil, ending.cast())
        intervals.unref()
        ending.unref()
        return menu.cast()
    }
}
