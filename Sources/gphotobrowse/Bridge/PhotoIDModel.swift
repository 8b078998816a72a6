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
    }

    init() {
        model = OpaquePointer(g_object_new_with_properties(Self.type, 0, nil, nil)!)
        g_object_set_qdata_full(model.object, Self.itemsKey, CallbackBox.retain(items)) { CallbackBox.release($0) }
    }

    isolated deinit { model.unref() }

    var count: Int { items.ids.count }

    /// Replaces `removed` ids at `position` with `inserted`, and tells the views.
    func splice(position: Int, removed: Int, inserted: [String]) {
        items.ids.replaceSubrange(position..<(position + removed), with: inserted)
        g_list_model_items_changed(model, guint(position), guint(removed), guint(inserted.count))
    }

    // MARK: The GObject type

    private static let itemsKey = g_quark_from_static_string("gphotobrowse-photo-ids")

    /// The ids carried by `model`.
    nonisolated private static func ids(of model: OpaquePointer?) -> [String] {
        guard let model, let data = g_object_get_qdata(UnsafeMutablePointer<GObject>(model), g_quark_from_static_string("gphotobrowse-photo-ids"))
        else { return [] }
        return CallbackBox.value(data, as: Items.self).ids
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
            functions.pointee.get_n_items = { model in guint(PhotoIDModel.ids(of: model).count) }
            functions.pointee.get_item = { model, position in
                let ids = PhotoIDModel.ids(of: model)
                guard Int(position) < ids.count else { return nil }
                return UnsafeMutableRawPointer(gtk_string_object_new(ids[Int(position)]))
            }
        }
        g_type_add_interface_static(type, g_list_model_get_type(), &listModel)
        return type
    }()
}
