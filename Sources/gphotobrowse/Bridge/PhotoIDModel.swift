import Bridge
import CGtk

/// The grid's GTK list model: the ids of the photos shown, in order, as a GListModel whose
/// items (GtkStringObjects) are made only when GTK asks for one, that is for the tiles on
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
/// The GObject type (`GphotobrowsePhotoIDs`) is registered once; each instance carries its
/// `Items` (object data, released with it). GTK calls the model on the main thread only.
@MainActor
final class PhotoIDModel {
    /// The model, owned: the selection model takes its own reference.
    let model: OpaquePointer  // GListModel
    private let items = Items()

    /// The ids the model shows; replaced only through `splice`.
    final class Items {
        fileprivate(set) var ids: [String] = []
        /// The items of the tiles shown, by id, each with a reference of its own.
        fileprivate var held: [String: OpaquePointer] = [:]  // GtkStringObject

        /// The item for `id`, a new reference: a tile's if one shows it.
        fileprivate func item(for id: String) -> UnsafeMutableRawPointer? {
            if let object = held[id] { return g_object_ref(UnsafeMutableRawPointer(object)) }
            // GTK asks for every position a splice adds: no copy of the id on the way.
            return id.withCString { UnsafeMutableRawPointer(gtk_string_object_new($0)) }
        }

        deinit {
            for object in held.values { g_object_unref(UnsafeMutableRawPointer(object)) }
        }
    }

    init() {
        model = OpaquePointer(g_object_new_with_properties(Self.type, 0, nil, nil)!)
        g_object_set_qdata_full(model.object, Self.itemsKey, CallbackBox.retain(items)) { CallbackBox.release($0) }
    }

    isolated deinit { model.unref() }

    /// A tile shows `item` (the id `id`): asked for `id` again, the model gives that item.
    func hold(_ item: OpaquePointer, for id: String) {
        guard items.held[id] != item else { return }
        g_object_ref(UnsafeMutableRawPointer(item))
        if let old = items.held.updateValue(item, forKey: id) { g_object_unref(UnsafeMutableRawPointer(old)) }
    }

    /// No tile shows `item` any more.
    func release(_ item: OpaquePointer, for id: String) {
        guard items.held[id] == item else { return }
        items.held[id] = nil
        g_object_unref(UnsafeMutableRawPointer(item))
    }

    var count: Int { items.ids.count }

    /// Replaces `removed` ids at `position` with `inserted`, and tells the views.
    func splice(position: Int, removed: Int, inserted: [String]) {
        items.ids.replaceSubrange(position..<(position + removed), with: inserted)
        g_list_model_items_changed(model, guint(position), guint(removed), guint(inserted.count))
    }

    // MARK: The GObject type

    nonisolated private static let itemsKey = g_quark_from_static_string("gphotobrowse-photo-ids")

    /// The items carried by `model`.
    nonisolated private static func items(of model: OpaquePointer?) -> Items? {
        guard let model, let data = g_object_get_qdata(UnsafeMutablePointer<GObject>(model), itemsKey)
        else { return nil }
        return CallbackBox.value(data, as: Items.self)
    }

    /// A GObject implementing GListModel: no state of its own beyond its `Items`.
    private static let type: GType = {
        var info = GTypeInfo()
        info.class_size = guint16(MemoryLayout<GObjectClass>.size)
        info.instance_size = guint16(MemoryLayout<GObject>.size)
        let type = g_type_register_static(g_object_get_type(), "GphotobrowsePhotoIDs", &info, GTypeFlags(rawValue: 0))
        var listModel = GInterfaceInfo()
        listModel.interface_init = { interface, _ in
            let functions = interface!.assumingMemoryBound(to: GListModelInterface.self)
            functions.pointee.get_item_type = { _ in gtk_string_object_get_type() }
            functions.pointee.get_n_items = { model in guint(PhotoIDModel.items(of: model)?.ids.count ?? 0) }
            functions.pointee.get_item = { model, position in
                guard let items = PhotoIDModel.items(of: model), Int(position) < items.ids.count else { return nil }
                return items.item(for: items.ids[Int(position)])
            }
        }
        g_type_add_interface_static(type, g_list_model_get_type(), &listModel)
        return type
    }()
}
