import Bridge
import CGtk

/// The grid's GTK list model: the ids of the photos shown, in order, as a GListModel whose
/// items (`PhotoItem`s) are made only when GTK asks for one, that is for the tiles on
/// screen and the few around them.
///
/// A GtkStringList would hold a GObject and a C copy of the id for every photo: on 100,000
/// photos about 14 MB, made again at every re-sort. Here the ids are the Swift strings the
/// album holds already (an array of references), and a splice changes the array and says
/// so (`items-changed`).
///
/// A photo's item stays one object while a tile shows it (`hold`, `release`): after a splice
/// that moved the photo, GTK asks for the item at its new place, gets the same object back,
/// finds the tile it made for it and keeps that tile. With a new object per call, every
/// splice made every tile on screen anew (GTK 4.8 looks its tiles' items up by object).
///
/// GTK 4.8 asks for the item at every place a splice adds when the splice removes a row it
/// tracks (the scroll's anchor, the focus): 100,000 calls when a listing's photos arrive. So a
/// call looks the tiles' items up by place (no id hashed), an item is a GObject of ours with
/// no properties holding the Swift id (a reference count, no copy of the bytes), and the item
/// GTK let go of is given again holding the next id (`spare`) instead of a new object made
/// and freed for each place.
///
/// The GObject types (`GphotobrowsePhotoIDs`, `GphotobrowsePhotoItem`) are registered once;
/// each model carries its `Items` in its instance. GTK calls the model on the main thread only.
@MainActor
final class PhotoIDModel {
    /// The model, owned: the selection model takes its own reference.
    let model: OpaquePointer  // GListModel
    private let items = Items()

    /// The ids the model shows; replaced only through `splice`.
    final class Items {
        fileprivate(set) var ids: [String] = []
        /// The items of the tiles shown, by id, each with a reference of its own, and their
        /// places (-1: the photo left the model, its tile not let go yet).
        fileprivate var held: [String: (item: OpaquePointer, position: Int)] = [:]
        /// The same items by place, which GTK asks by.
        fileprivate var heldAt: [Int: OpaquePointer] = [:]

        /// The last item made, with a reference of the model's own: once nothing else holds it
        /// (GTK let it go), the next item asked for is this one holding another place, not a new
        /// object. GTK's answer to a splice asks for an item at each place and drops it at once,
        /// comparing it by pointer only: the spare holds its place, and takes the id there only
        /// when asked for it (`PhotoItem.id(of:)`) or when it is no longer the spare, so the
        /// 100,000 calls of a listing's hand-over touch no string.
        fileprivate var spare: UnsafeMutableRawPointer?

        /// The item at `position`, a new reference: a tile's if one shows it.
        fileprivate func item(at position: Int) -> UnsafeMutableRawPointer? {
            if !heldAt.isEmpty, let object = heldAt[position] { return g_object_ref(UnsafeMutableRawPointer(object)) }
            if let spare, PhotoItem.isOnlyHeldByItsMaker(spare) {
                PhotoItem.hold(place: position, of: self, on: spare)
                return g_object_ref(spare)
            }
            guard let made = PhotoItem.make(id: ids[position]) else { return nil }
            letSpareGo()
            spare = g_object_ref(made)
            return made
        }

        /// The spare holds the id of its place from now on (the ids are about to change, or
        /// it stops being the spare).
        fileprivate func settleSpare() {
            if let spare { PhotoItem.settle(spare) }
        }

        private func letSpareGo() {
            settleSpare()
            if let spare { g_object_unref(spare) }
            spare = nil
        }

        deinit {
            for entry in held.values { g_object_unref(UnsafeMutableRawPointer(entry.item)) }
            letSpareGo()
        }
    }

    init() {
        model = OpaquePointer(g_object_new_with_properties(Self.type, 0, nil, nil)!)
        Self.itemsSlot(of: model).pointee = Unmanaged.passRetained(items).toOpaque()
    }

    isolated deinit { model.unref() }

    /// A tile shows `item` (the id `id`, at `position`): asked for that place, the model gives
    /// that item.
    func hold(_ item: OpaquePointer, for id: String, at position: Int) {
        if let old = items.held[id] {
            if old.item == item, old.position == position { return }
            if items.heldAt[old.position] == old.item { items.heldAt[old.position] = nil }
            if old.item != item {
                g_object_ref(UnsafeMutableRawPointer(item))
                g_object_unref(UnsafeMutableRawPointer(old.item))
            }
        } else {
            g_object_ref(UnsafeMutableRawPointer(item))
        }
        items.held[id] = (item, position)
        if position >= 0 { items.heldAt[position] = item }
    }

    /// No tile shows `item` any more.
    func release(_ item: OpaquePointer, for id: String) {
        guard let entry = items.held[id], entry.item == item else { return }
        items.held[id] = nil
        if items.heldAt[entry.position] == item { items.heldAt[entry.position] = nil }
        g_object_unref(UnsafeMutableRawPointer(item))
    }

    var count: Int { items.ids.count }

    /// Replaces `removed` ids at `position` with `inserted`, and tells the views. `place`
    /// gives a photo's place once replaced (the album's list has changed already), for the
    /// tiles' items.
    func splice(position: Int, removed: Int, inserted: [String], place: (String) -> Int?) {
        items.settleSpare()
        items.ids.replaceSubrange(position..<(position + removed), with: inserted)
        placeHeldItems(place)
        g_list_model_items_changed(model, guint(position), guint(removed), guint(inserted.count))
    }

    /// Replaces every id with `ids`, told as two changes: every id gone, then the new ones.
    /// GTK 4.8 answers a change that removes a row it tracks (the top row, the focus) by asking
    /// for the item at every place it adds (100,000 calls when a listing's photos arrive); the
    /// model emptied first, it tracks no row when they come, and makes the rows it shows anew.
    /// No frame is drawn between the two.
    func replaceAll(with ids: [String], place: (String) -> Int?) {
        items.settleSpare()
        let removed = items.ids.count
        items.ids = []
        placeHeldItems { _ in nil }
        g_list_model_items_changed(model, 0, guint(removed), 0)
        items.ids = ids
        placeHeldItems(place)
        g_list_model_items_changed(model, 0, 0, guint(ids.count))
    }

    /// The tiles' items at the places `place` gives their photos (nil: gone from the model).
    private func placeHeldItems(_ place: (String) -> Int?) {
        guard !items.held.isEmpty else { return }
        items.heldAt.removeAll(keepingCapacity: true)
        for (id, entry) in items.held {
            let now = place(id) ?? -1
            items.held[id] = (entry.item, now)
            if now >= 0 { items.heldAt[now] = entry.item }
        }
    }

    // MARK: The GObject type

    /// The instance: a GObject and its `Items`, retained.
    private struct Instance {
        var parent: GObject
        var items: UnsafeMutableRawPointer?
    }

    nonisolated private static func itemsSlot(of model: OpaquePointer) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        (UnsafeMutableRawPointer(model) + MemoryLayout<Instance>.offset(of: \.items)!)
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    /// The items carried by `model`.
    nonisolated private static func items(of model: OpaquePointer?) -> Items? {
        guard let model, let data = itemsSlot(of: model).pointee else { return nil }
        return Unmanaged<Items>.fromOpaque(data).takeUnretainedValue()
    }

    nonisolated(unsafe) private static var parentFinalize: (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?

    /// A GObject implementing GListModel: no state of its own beyond its `Items`.
    private static let type: GType = {
        var info = GTypeInfo()
        info.class_size = guint16(MemoryLayout<GObjectClass>.size)
        info.instance_size = guint16(MemoryLayout<Instance>.size)
        info.class_init = { klass, _ in
            let objectClass = klass!.assumingMemoryBound(to: GObjectClass.self)
            PhotoIDModel.parentFinalize = g_type_class_peek_parent(klass)!.assumingMemoryBound(to: GObjectClass.self).pointee.finalize
            objectClass.pointee.finalize = { object in
                let slot = PhotoIDModel.itemsSlot(of: OpaquePointer(object!))
                if let data = slot.pointee { Unmanaged<Items>.fromOpaque(data).release() }
                slot.pointee = nil
                PhotoIDModel.parentFinalize?(object)
            }
        }
        let type = g_type_register_static(g_object_get_type(), "GphotobrowsePhotoIDs", &info, GTypeFlags(rawValue: 0))
        var listModel = GInterfaceInfo()
        listModel.interface_init = { interface, _ in
            let functions = interface!.assumingMemoryBound(to: GListModelInterface.self)
            functions.pointee.get_item_type = { _ in PhotoItem.type }
            functions.pointee.get_n_items = { model in guint(PhotoIDModel.items(of: model)?.ids.count ?? 0) }
            functions.pointee.get_item = { model, position in
                guard let items = PhotoIDModel.items(of: model), Int(position) < items.ids.count else { return nil }
                return items.item(at: Int(position))
            }
        }
        g_type_add_interface_static(type, g_list_model_get_type(), &listModel)
        return type
    }()
}

/// An item of `PhotoIDModel`: a photo's id as a GObject (`GphotobrowsePhotoItem`), with no
/// properties, holding the Swift string itself.
enum PhotoItem {
    /// The instance: a GObject and the id, which `make` sets and finalizing clears.
    private struct Instance {
        var parent: GObject
        var hasID: Int
        var id: String
        /// A place in `ids`' model whose id `id` is to become (-1: none), while the item is
        /// the model's spare (`PhotoIDModel.Items.spare`) and its ids have not changed.
        var place: Int
        /// The model's ids (unretained) while `place` is set.
        var ids: UnsafeMutableRawPointer?
    }

    private static let hasIDOffset = MemoryLayout<Instance>.offset(of: \.hasID)!
    private static let idOffset = MemoryLayout<Instance>.offset(of: \.id)!
    private static let placeOffset = MemoryLayout<Instance>.offset(of: \.place)!
    private static let idsOffset = MemoryLayout<Instance>.offset(of: \.ids)!

    /// A new item holding `id`, one reference the caller owns.
    static func make(id: String) -> UnsafeMutableRawPointer? {
        guard let object = g_object_new_with_properties(type, 0, nil, nil) else { return nil }
        let raw = UnsafeMutableRawPointer(object)
        (raw + idOffset).initializeMemory(as: String.self, repeating: id, count: 1)
        (raw + hasIDOffset).storeBytes(of: 1, as: Int.self)
        (raw + placeOffset).storeBytes(of: -1, as: Int.self)
        (raw + idsOffset).storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        return raw
    }

    /// Makes `item`, which only its maker holds, stand for the photo at `place` of `ids`: its
    /// id is taken from there when asked for (`id(of:)`) or when `settle`d, which `ids` does
    /// before it changes and before it lets the item go.
    fileprivate static func hold(place: Int, of ids: PhotoIDModel.Items, on item: UnsafeMutableRawPointer) {
        (item + placeOffset).storeBytes(of: place, as: Int.self)
        (item + idsOffset).storeBytes(of: Unmanaged.passUnretained(ids).toOpaque(), as: UnsafeMutableRawPointer?.self)
    }

    /// Makes `item` hold the id of the place it stands for, if it stands for one.
    fileprivate static func settle(_ item: UnsafeMutableRawPointer) {
        let place = item.load(fromByteOffset: placeOffset, as: Int.self)
        guard place >= 0, let ids = item.load(fromByteOffset: idsOffset, as: UnsafeMutableRawPointer?.self) else { return }
        (item + idOffset).assumingMemoryBound(to: String.self).pointee = Unmanaged<PhotoIDModel.Items>.fromOpaque(ids).takeUnretainedValue().ids[place]
        (item + placeOffset).storeBytes(of: -1, as: Int.self)
        (item + idsOffset).storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    }

    /// Whether the one reference to `item` is its maker's: no one else can see it change.
    static func isOnlyHeldByItsMaker(_ item: UnsafeMutableRawPointer) -> Bool {
        item.assumingMemoryBound(to: GObject.self).pointee.ref_count == 1
    }

    /// The id `item` holds, nil when it is no item of this type.
    static func id(of item: UnsafeMutableRawPointer) -> String? {
        guard g_type_check_instance_is_a(item.assumingMemoryBound(to: GTypeInstance.self), type) != 0,
              item.load(fromByteOffset: hasIDOffset, as: Int.self) != 0 else { return nil }
        settle(item)
        return (item + idOffset).assumingMemoryBound(to: String.self).pointee
    }

    nonisolated(unsafe) private static var parentFinalize: (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?

    static let type: GType = {
        var info = GTypeInfo()
        info.class_size = guint16(MemoryLayout<GObjectClass>.size)
        info.instance_size = guint16(MemoryLayout<Instance>.size)
        info.class_init = { klass, _ in
            let objectClass = klass!.assumingMemoryBound(to: GObjectClass.self)
            PhotoItem.parentFinalize = g_type_class_peek_parent(klass)!.assumingMemoryBound(to: GObjectClass.self).pointee.finalize
            objectClass.pointee.finalize = { object in
                let raw = UnsafeMutableRawPointer(object!)
                if raw.load(fromByteOffset: PhotoItem.hasIDOffset, as: Int.self) != 0 {
                    (raw + PhotoItem.idOffset).assumingMemoryBound(to: String.self).deinitialize(count: 1)
                    raw.storeBytes(of: 0, toByteOffset: PhotoItem.hasIDOffset, as: Int.self)
                }
                PhotoItem.parentFinalize?(object)
            }
        }
        return g_type_register_static(g_object_get_type(), "GphotobrowsePhotoItem", &info, GTypeFlags(rawValue: 0))
    }()
}
