import CGdkPixbuf
import Foundation
import PhotoCore
import PhotoIO
import Testing

/// The settings against the real schema (`data/`), compiled for the test by
/// glib-compile-schemas, kept by GLib's key file backend in a temporary folder.
@Suite struct SettingsStoreTests {
    private static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../data").standardized.path

    /// A folder holding the compiled schema, and a key file for the settings.
    private struct Place {
        let schemas: String
        let keyFile: String

        init() throws {
            let folder = NSTemporaryDirectory() + "gphotobrowse-settings-\(UUID().uuidString)"
            schemas = folder + "/schemas"
            keyFile = folder + "/settings/keyfile"
            try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
            let compile = Process()
            compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            compile.arguments = ["glib-compile-schemas", "--strict", "--targetdir", schemas, SettingsStoreTests.dataFolder]
            try compile.run()
            compile.waitUntilExit()
            #expect(compile.terminationStatus == 0, "glib-compile-schemas failed on data/")
        }

        func store() throws -> SettingsStore {
            let backend = g_keyfile_settings_backend_new(keyFile, "/", nil)
            defer { g_object_unref(backend) }
            return try #require(SettingsStore(schemaDirectory: schemas, backend: backend))
        }
    }

    @Test func theSchemaHoldsTheModelsDefaults() throws {
        #expect(try Place().store().read() == BrowserSettings())
    }

    @Test func theSchemaHasEveryKeyWithTheModelsRanges() throws {
        let place = try Place()
        let source = try #require(g_settings_schema_source_new_from_directory(place.schemas, nil, 0, nil))
        defer { g_settings_schema_source_unref(source) }
        let schema = try #require(g_settings_schema_source_lookup(source, SettingsSchema.id, 0))
        defer { g_settings_schema_unref(schema) }
        var names: [String] = []
        if let keys = g_settings_schema_list_keys(schema) {
            var index = 0
            while let key = keys[index] {
                names.append(String(cString: key))
                index += 1
            }
            g_strfreev(keys)
        }
        #expect(Set(names) == Set(SettingsKey.allCases.map(\.rawValue)))
        #expect(range(of: .tileSize, in: schema) == TileSize.smallest...TileSize.largest)
        #expect(range(of: .slideshowInterval, in: schema) == SlideshowInterval.shortest...SlideshowInterval.longest)
        #expect(range(of: .windowWidth, in: schema) == WindowState.minimumWidth...WindowState.maximumEdge)
        #expect(range(of: .windowHeight, in: schema) == WindowState.minimumHeight...WindowState.maximumEdge)
    }

    /// The range of an integer key: the schema's `range` (type `(sv)`, `('range', <(min, max)>)`).
    private func range(of key: SettingsKey, in schema: OpaquePointer) -> ClosedRange<Int>? {
        guard let settingsKey = g_settings_schema_get_key(schema, key.rawValue) else { return nil }
        defer { g_settings_schema_key_unref(settingsKey) }
        guard let range = g_settings_schema_key_get_range(settingsKey) else { return nil }
        defer { g_variant_unref(range) }
        guard let bounds = g_variant_get_child_value(range, 1), let pair = g_variant_get_variant(bounds) else { return nil }
        defer { g_variant_unref(bounds); g_variant_unref(pair) }
        guard let low = g_variant_get_child_value(pair, 0), let high = g_variant_get_child_value(pair, 1) else { return nil }
        defer { g_variant_unref(low); g_variant_unref(high) }
        return Int(g_variant_get_int32(low))...Int(g_variant_get_int32(high))
    }

    @Test func whatIsWrittenIsReadBackAfterARestart() throws {
        let place = try Place()
        let chosen = BrowserSettings(order: PhotoOrder(key: .name, reversed: true), tileSize: TileSize(edge: 256),
                                     window: WindowState(width: 900, height: 700, maximized: true),
                                     lastFolder: "file:///home/me/Pictures/Trip", slideshowInterval: SlideshowInterval(seconds: 12),
                                     slideshowEnding: .stop)
        do {
            let store = try place.store()
            store.write(chosen)
            store.sync()
            #expect(store.read() == chosen)
        }
        // Another store on the same key file: a later run of the app.
        #expect(try place.store().read() == chosen)
        let text = try String(contentsOfFile: place.keyFile, encoding: .utf8)
        #expect(text.contains("sort-by='name'"))
        #expect(text.contains("tile-size=256"))
    }

    @Test func onlyWhatChangedIsWritten() throws {
        let place = try Place()
        let store = try place.store()
        store.write(BrowserSettings())
        store.sync()
        #expect(!FileManager.default.fileExists(atPath: place.keyFile), "the defaults written again wrote something")
        var settings = BrowserSettings()
        settings.tileSize = TileSize(edge: 96)
        store.write(settings)
        store.sync()
        let text = try String(contentsOfFile: place.keyFile, encoding: .utf8)
        #expect(text.contains("tile-size=96"))
        #expect(!text.contains("sort-by"))
    }

    @Test func valuesSetFromOutsideAreReadWithinTheModelsRanges() throws {
        let place = try Place()
        try FileManager.default.createDirectory(atPath: (place.keyFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // As a person could write them with a text editor: GSettings refuses what is out of
        // range, and a tile size between two steps stays.
        try "[io/github/gphotobrowse/Gphotobrowse]\ntile-size=200\nslideshow-interval=500\nsort-by='colour'\nlast-folder=''\n"
            .write(toFile: place.keyFile, atomically: true, encoding: .utf8)
        let settings = try place.store().read()
        #expect(settings.tileSize.edge == 200)
        #expect(settings.slideshowInterval == .standard)
        #expect(settings.order.key == .dateTaken)
        #expect(settings.lastFolder == nil)
    }

    @Test func theSettingsFileIsRecordedAsRead() throws {
        let place = try Place()
        #expect(try place.store().settingsFileMigrated == false)
        do {
            let store = try place.store()
            store.settingsFileMigrated = true
            store.sync()
        }
        #expect(try place.store().settingsFileMigrated == true)
    }

    @Test func noSchemaNoStore() {
        let empty = NSTemporaryDirectory() + "gphotobrowse-no-schema-\(UUID().uuidString)"
        let backend = g_memory_settings_backend_new()
        defer { g_object_unref(backend) }
        // GLib's own search may find an installed schema: only a folder without one is checked here.
        if g_settings_schema_source_get_default().flatMap({ g_settings_schema_source_lookup($0, SettingsSchema.id, 1) }) == nil {
            #expect(SettingsStore(schemaDirectory: empty, backend: backend) == nil)
        }
    }
}

@Suite struct LegacySettingsFileTests {
    private func temporaryPath() -> String {
        NSTemporaryDirectory() + "gphotobrowse-settings-\(UUID().uuidString)/gphotobrowse/settings.ini"
    }

    @Test func noFileNoEntries() {
        #expect(LegacySettingsFile(path: temporaryPath()).read() == nil)
    }

    @Test func theBrowserGroupIsRead() throws {
        let file = LegacySettingsFile(path: temporaryPath())
        try FileManager.default.createDirectory(atPath: (file.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "[browser]\nsort-by=name\nsort-reversed=true\nother=1\n".write(toFile: file.path, atomically: true, encoding: .utf8)
        #expect(file.read() == ["sort-by": "name", "sort-reversed": "true"])
        #expect(file.remove())
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // Its folder went with it, being empty.
        #expect(!FileManager.default.fileExists(atPath: (file.path as NSString).deletingLastPathComponent))
        #expect(file.remove(), "removing a file already gone is no failure")
    }

    @Test func aGarbledFileGivesNoEntries() throws {
        let file = LegacySettingsFile(path: temporaryPath())
        try FileManager.default.createDirectory(atPath: (file.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data([0xFF, 0x00, 0x5B, 0x0A, 0x3D]).write(to: URL(fileURLWithPath: file.path))
        #expect(file.read() == [:])
    }
}
