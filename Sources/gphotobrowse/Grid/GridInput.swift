import CGtk
import PhotoCore

/// The grid's input besides GtkGridView's own (arrow keys, activation): selection clicks in
/// edit mode, the rubber band, the context menu, and dragging photos out.
extension ThumbnailGrid {
    /// Clicks on tiles in edit mode (or with Ctrl or Shift outside it) select; the gesture
    /// claims them in the capture phase so that the grid view does not also act on them.
    /// Clicks on the background go on to the grid view, which starts its rubber band.
    func installSelectionClicks() {
        let clicks = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(clicks.cast(), GTK_PHASE_CAPTURE)
        gtk_gesture_single_set_button(clicks.cast(), 1)
        onPressed(clicks) { [weak self, clicks] presses, x, y in
            guard let self else { return }
            self.focusWasMoved = true
            let state = gtk_event_controller_get_current_event_state(clicks.cast()).rawValue
            let control = state & GDK_CONTROL_MASK.rawValue != 0, shift = state & GDK_SHIFT_MASK.rawValue != 0
            guard self.isEditing || control || shift, let id = self.photo(at: x, y) else { return }
            gtk_gesture_set_state(clicks.cast(), GTK_EVENT_SEQUENCE_CLAIMED)
            self.onSelectClick(id, shift)
            // A double click in edit mode has toggled the photo twice, back as it was: where
            // tiles preview, it shows the photo.
            if presses == 2, let onPreview = self.onPreview, let index = self.contents.photos.index(of: id) { onPreview(index) }
        }
        gtk_widget_add_controller(gridView.widget, clicks.cast())
    }

    /// Where a single click does not activate a tile (choosing photos), it previews the
    /// photo once the double-click time has passed without a second click (which activates).
    /// Keys that move the focus say the person moved it, and select nothing.
    func installPreviewClicks() {
        let clicks = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(clicks.cast(), 1)
        var pending: UInt32 = 0
        onPressed(clicks) { [weak self] presses, x, y in
            guard let self, !self.activatesOnSingleClick, !self.isEditing, let onPreview = self.onPreview else { return }
            if pending != 0 { g_source_remove(pending) }
            pending = 0
            guard presses == 1, let id = self.photo(at: x, y) else { return }
            pending = after(milliseconds: UInt32(max(100, cgtk_double_click_time()))) { [weak self] in
                pending = 0
                guard let self, let index = self.contents.photos.index(of: id) else { return }
                onPreview(index)
            }
        }
        gtk_widget_add_controller(gridView.widget, clicks.cast())

        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] keyval, _ in
            let moving: Set<Int32> = [GDK_KEY_Left, GDK_KEY_Right, GDK_KEY_Up, GDK_KEY_Down, GDK_KEY_Page_Up, GDK_KEY_Page_Down,
                                      GDK_KEY_Home, GDK_KEY_End, GDK_KEY_Tab, GDK_KEY_KP_Left, GDK_KEY_KP_Right, GDK_KEY_KP_Up, GDK_KEY_KP_Down]
            guard let self, moving.contains(Int32(keyval)) else { return false }
            self.focusWasMoved = true
            // GTK's grid view selects, in its own model, the photo a key moves to: in edit
            // mode that is not a tick (Space ticks), so it is neither taken for the rubber band
            // nor kept.
            self.movingFocusByKey = true
            after(milliseconds: 0) { [weak self] in
                guard let self else { return }
                self.movingFocusByKey = false
                guard self.isEditing else { return }
                self.echoingSelection = true
                gtk_selection_model_unselect_all(self.selectionModel.cast())
                self.echoingSelection = false
            }
            return false
        }
        gtk_widget_add_controller(gridView.widget, keys)
    }

    /// The rubber band writes GTK's selection model; edit mode's selection follows it.
    func installRubberBand() {
        onSignal(selectionModel, "selection-changed", integers: { [weak self] position, count in
            self?.rubberBandChanged(Int(UInt32(bitPattern: position)), Int(UInt32(bitPattern: count)))
        })
    }

    private func rubberBandChanged(_ position: Int, _ count: Int) {
        guard isEditing, !echoingSelection, !movingFocusByKey else { return }
        var selected = Set<String>(), unselected = Set<String>()
        for index in position..<min(position + count, contents.photos.count) {
            let id = contents.photos[index].id
            if gtk_selection_model_is_selected(selectionModel.cast(), UInt32(index)) != 0 { selected.insert(id) } else { unselected.insert(id) }
        }
        onRubberBand(selected, unselected)
    }

    /// Right click, long press or the Menu key ask for the context menu; dragging a tile out
    /// carries its file (or the selection's) to other applications.
    func installContextMenuAndDrag() {
        let rightClick = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(rightClick.cast(), 3)
        onPressed(rightClick) { [weak self] _, x, y in self?.onContextMenu(self?.photo(at: x, y), x, y) }
        gtk_widget_add_controller(gridView.widget, rightClick.cast())

        let longPress = gtk_gesture_long_press_new()!
        gtk_gesture_single_set_touch_only(longPress.cast(), 1)
        onSignal(longPress, "pressed", doubles: { [weak self] x, y in self?.onContextMenu(self?.photo(at: x, y), x, y) })
        gtk_widget_add_controller(gridView.widget, longPress.cast())

        let keys = gtk_event_controller_key_new()!
        onKeyPressed(keys) { [weak self] keyval, state in
            let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
            guard let self, Int32(keyval) == GDK_KEY_Menu || (Int32(keyval) == GDK_KEY_F10 && shift) else { return false }
            guard let tile = self.focusedTile else { return false }
            var bounds = graphene_rect_t()
            _ = gtk_widget_compute_bounds(tile.root, self.gridView.widget, &bounds)
            self.onContextMenu(tile.photo?.id, Double(bounds.origin.x + bounds.size.width / 2), Double(bounds.origin.y + bounds.size.height / 2))
            return true
        }
        gtk_widget_add_controller(gridView.widget, keys)

        let drag = gtk_drag_source_new()!
        gtk_drag_source_set_actions(drag.cast(), GDK_ACTION_COPY)
        onDragPrepare(drag) { [weak self] x, y in
            guard let self, let id = self.photo(at: x, y) else { return nil }
            return PhotoActions.contentProvider(for: self.urisToDrag(id))
        }
        gtk_widget_add_controller(gridView.widget, drag.cast())
    }

    /// Where the tile showing `id` is, in the grid view's coordinates, while one is bound to it.
    func tileRect(showing id: String) -> GdkRectangle? {
        guard let tile = tiles.values.first(where: { $0.photo?.id == id }) else { return nil }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(tile.root, gridView.widget, &bounds) != 0 else { return nil }
        return GdkRectangle(x: Int32(bounds.origin.x), y: Int32(bounds.origin.y),
                            width: Int32(bounds.size.width), height: Int32(bounds.size.height))
    }

    /// The tile whose cell has the keyboard focus.
    var focusedTile: ThumbnailTile? {
        tiles.values.first { gtk_widget_get_parent($0.root).map { gtk_widget_has_focus($0) != 0 } ?? false }
    }
}
