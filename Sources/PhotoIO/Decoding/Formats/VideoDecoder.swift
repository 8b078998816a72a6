import CGdkPixbuf
import CGst
import Glibc
import PhotoCore

/// What a video file says of itself, read in a decoder process.
struct VideoDetails {
    /// Its length in milliseconds, when the container says.
    var duration: Int?
    /// When it was recorded (the container's creation time, a true instant), in
    /// microseconds since the Unix epoch.
    var created: Int64?
    /// Clockwise quarter turns its container asks for (the track's matrix, as qtdemux reads it).
    var turns = 0
}

/// Videos (MP4, QuickTime, WebM, Matroska, 3GP) through GStreamer, in a decoder process: a
/// frame near a tenth of the way in, turned as the container's rotation says, its length
/// and its creation date. The file is read through the descriptor the browser sent (fdsrc),
/// never by path.
///
/// GStreamer is started the first time a video comes, with no plugin registry (nothing is
/// scanned, no helper program is run, nothing is written) and only the plugins a video's
/// frame needs loaded by name from the system's plugin folder: demuxers, FFmpeg's, VP8/9's
/// and AV1's decoders, conversion, rotation and appsink. The decoder's seccomp filter and
/// Landlock rules allow what that takes (reading and mapping libraries under /usr, threads,
/// and a pair of Unix sockets joined to each other for each pipeline's bus: the one call the
/// filter allows for GStreamer). A stream whose decoder is not among them fails
/// with the codec's name and the Debian package that brings it.
enum VideoDecoder {
    /// The plugins loaded (`libgst<NAME>.so`), those missing on this machine left out.
    static let plugins = [
        "coreelements", "typefindfunctions", "playback", "app", "videoconvertscale", "videoconvert", "videoscale",
        "videofilter", "isomp4", "matroska", "videoparsersbad", "libav", "vpx", "dav1d", "aom",
    ]

    /// Whether GStreamer started (once per process).
    nonisolated(unsafe) private static var started: Bool?

    static func start() -> Bool {
        if let started { return started }
        // No registry: nothing scanned, cached or written; no plugin but those loaded below.
        setenv("GST_REGISTRY_DISABLE", "yes", 1)
        setenv("GST_REGISTRY_FORK", "no", 1)
        setenv("GST_PLUGIN_SYSTEM_PATH_1_0", "", 1)
        setenv("GST_PLUGIN_PATH_1_0", "", 1)
        unsetenv("GST_DEBUG")
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else {
            g_clear_error(&error)
            started = false
            return false
        }
        let folder = pluginFolder()
        for name in plugins {
            let path = "\(folder)/libgst\(name).so"
            guard access(path, R_OK) == 0 else { continue }
            var failure: UnsafeMutablePointer<GError>?
            if let plugin = gst_plugin_load_file(path, &failure) { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
            g_clear_error(&failure)
        }
        started = gst_element_factory_find("decodebin") != nil && gst_element_factory_find("appsink") != nil
        return started!
    }

    /// GStreamer's plugin folder: the first of the usual ones (Debian's multiarch folder,
    /// then the plain ones) holding its core elements.
    private static func pluginFolder() -> String {
        #if arch(arm64)
        let triple = "aarch64-linux-gnu"
        #else
        let triple = "x86_64-linux-gnu"
        #endif
        let candidates = ["/usr/lib/\(triple)/gstreamer-1.0", "/usr/lib64/gstreamer-1.0", "/usr/lib/gstreamer-1.0"]
        return candidates.first { access($0 + "/libgstcoreelements.so", R_OK) == 0 } ?? candidates[0]
    }

    /// The frame near 10% of the video, upright, in a pixbuf the caller releases; its facts.
    static func decode(descriptor: Int32, maxPixels: Int, cancellation: CancellationFlag) -> Result<(OwnDecodedImage, VideoDetails), DecodeFailure> {
        run(descriptor: descriptor, frame: true, maxPixels: maxPixels, cancellation: cancellation).flatMap { run in
            guard let image = run.image else { return .failure(DecodeFailure(.corrupt, tr("The video has no picture that could be decoded."))) }
            return .success((image, run.details))
        }
    }

    /// The video's length and creation date, without a frame.
    static func facts(descriptor: Int32, cancellation: CancellationFlag = CancellationFlag()) -> VideoDetails? {
        try? run(descriptor: descriptor, frame: false, maxPixels: 0, cancellation: cancellation).get().details
    }

    private struct Run {
        var details = VideoDetails()
        var image: OwnDecodedImage?
    }

    private static let waitLimit: UInt64 = 20  // seconds a step may take

    private static func run(descriptor: Int32, frame: Bool, maxPixels: Int, cancellation: CancellationFlag) -> Result<Run, DecodeFailure> {
        guard start() else { return .failure(DecodeFailure(.notAnImage, tr("Videos cannot be shown: GStreamer could not start."))) }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            return .failure(DecodeFailure(.unreadable, tr("The file could not be read: %s.", String(cString: strerror(errno)))))
        }
        // Square pixels, RGB, turned by the container's rotation (videoflip's automatic
        // direction follows the image-orientation tag qtdemux reads from the track's matrix).
        let description = "fdsrc fd=\(descriptor) ! decodebin name=decode ! videoconvert ! videoscale ! "
            + "videoflip video-direction=auto ! videoconvert ! video/x-raw,format=RGB,pixel-aspect-ratio=1/1 ! "
            + "appsink name=sink sync=false max-buffers=1 enable-last-sample=false"
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst_parse_launch(description, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "?"
            g_clear_error(&error)
            return .failure(DecodeFailure(.notAnImage, tr("Videos cannot be shown: %s", message)))
        }
        g_clear_error(&error)
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
        }
        let bus = gst_element_get_bus(pipeline)
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        var run = Run()
        var missing: [(caps: String, codec: String)] = []

        /// Waits for the pipeline to preroll (ASYNC_DONE), reading tags meanwhile.
        func preroll() -> DecodeFailure? {
            let deadline = monotonicSeconds() + waitLimit
            while monotonicSeconds() < deadline {
                if cancellation.isCancelled { return DecodeFailure(.cancelled, "Cancelled") }
                let types = GstMessageType(rawValue: GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_TAG.rawValue
                                           | GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_EOS.rawValue)
                guard let message = gst_bus_timed_pop_filtered(bus, 100 * cgst_MSECOND, types) else { continue }
                defer { gst_message_unref(message) }
                switch cgst_message_type(message) {
                case GST_MESSAGE_ASYNC_DONE: return nil
                case GST_MESSAGE_TAG: readTags(message, into: &run.details)
                case GST_MESSAGE_ELEMENT:
                    if let decoder = missingDecoder(message) { missing.append(decoder) }
                case GST_MESSAGE_EOS: return DecodeFailure(.corrupt, tr("The video has no picture that could be decoded."))
                default:
                    if let decoder = missing.first(where: { $0.caps.hasPrefix("video/") }) ?? missing.first { return missingFailure(decoder) }
                    var failure: UnsafeMutablePointer<GError>?
                    gst_message_parse_error(message, &failure, nil)
                    let text = failure.map { String(cString: $0.pointee.message) } ?? "?"
                    g_clear_error(&failure)
                    return DecodeFailure(.corrupt, tr("The video could not be decoded: %s", text))
                }
            }
            return DecodeFailure(.timedOut, tr("The video took too long to open."))
        }

        if gst_element_set_state(pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE, missing.isEmpty {
            if let failure = preroll() { return .failure(failure) }
            return .failure(DecodeFailure(.corrupt, tr("The video could not be opened.")))
        }
        if let failure = preroll() { return .failure(failure) }
        var length: gint64 = 0
        if gst_element_query_duration(pipeline, GST_FORMAT_TIME, &length) != 0, length > 0 {
            run.details.duration = Int(length / gint64(cgst_MSECOND))
        }
        guard frame else { return .success(run) }
        if length > 0 {
            let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
            if gst_element_seek_simple(pipeline, GST_FORMAT_TIME, flags, length / 10) != 0, let failure = preroll() {
                return .failure(failure)
            }
        }
        guard let sinkElement = gst_bin_get_by_name(UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline)), "sink") else {
            return .failure(DecodeFailure(.corrupt, "No appsink."))
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(sinkElement)) }
        guard let sample = gst_app_sink_try_pull_preroll(UnsafeMutablePointer<GstAppSink>(OpaquePointer(sinkElement)), GstClockTime(waitLimit) * cgst_SECOND) else {
            return .failure(DecodeFailure(.corrupt, tr("The video has no picture that could be decoded.")))
        }
        defer { gst_sample_unref(sample) }
        guard let caps = gst_sample_get_caps(sample), let structure = gst_caps_get_structure(caps, 0),
              let buffer = gst_sample_get_buffer(sample) else {
            return .failure(DecodeFailure(.corrupt, tr("The video has no picture that could be decoded.")))
        }
        var width: gint = 0, height: gint = 0
        guard gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0,
              width > 0, height > 0 else {
            return .failure(DecodeFailure(.corrupt, tr("The video has no picture that could be decoded.")))
        }
        guard Int(width) * Int(height) <= maxPixels else {
            return .failure(DecodeFailure(.tooLarge, tr("The video’s picture is too large to show (%s × %s pixels).", "\(width)", "\(height)")))
        }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else {
            return .failure(DecodeFailure(.corrupt, tr("The video has no picture that could be decoded.")))
        }
        defer { gst_buffer_unmap(buffer, &map) }
        let rowBytes = (Int(width) * 3 + 3) & ~3
        guard Int(map.size) >= rowBytes * (Int(height) - 1) + Int(width) * 3, let data = map.data,
              let pixbuf = OwnDecoders.pixbuf(width: Int(width), height: Int(height), channels: 3, rowBytes: rowBytes, bytes: data) else {
            return .failure(DecodeFailure(.corrupt, tr("The video has no picture that could be decoded.")))
        }
        run.image = OwnDecodedImage(pixbuf: pixbuf, sourceSize: PixelSize(width: Int(width), height: Int(height)), format: "video")
        return .success(run)
    }

    /// The creation date in a TAG message.
    private static func readTags(_ message: UnsafeMutablePointer<GstMessage>, into facts: inout VideoDetails) {
        var tags: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message, &tags)
        guard let tags else { return }
        defer { gst_tag_list_unref(tags) }
        var orientation: UnsafeMutablePointer<gchar>?
        if gst_tag_list_get_string(tags, "image-orientation", &orientation) != 0, let orientation {
            let text = String(cString: orientation)
            g_free(orientation)
            // "rotate-90", "flip-rotate-270"…: the mirror is left to videoflip's frame.
            if let degrees = text.split(separator: "-").last.flatMap({ Int($0) }), [90, 180, 270].contains(degrees) {
                facts.turns = degrees / 90
            }
        }
        var date: OpaquePointer?
        if facts.created == nil, gst_tag_list_get_date_time(tags, "datetime", &date) != 0, let date {
            defer { gst_date_time_unref(date) }
            if gst_date_time_has_second(date) != 0, let local = gst_date_time_to_g_date_time(date) {
                defer { g_date_time_unref(local) }
                let year = g_date_time_get_year(local)
                // MP4's epoch (1904) and zero are what a camera writes when it knows no date.
                if year > 1970 { facts.created = Int64(g_date_time_to_unix(local)) * 1_000_000 + Int64(g_date_time_get_microsecond(local)) }
            }
        }
    }

    /// A decoder decodebin found missing ("missing-plugin" element messages): the stream's
    /// caps, and GStreamer's words for the codec when it has them ("H.265 (Main Profile)").
    private static func missingDecoder(_ message: UnsafeMutablePointer<GstMessage>) -> (caps: String, codec: String)? {
        guard let structure = gst_message_get_structure(message),
              String(cString: gst_structure_get_name(structure)) == "missing-plugin" else { return nil }
        guard let value = gst_structure_get_value(structure, "detail"), let caps = gst_value_get_caps(value),
              let text = gst_caps_to_string(caps) else { return nil }
        defer { g_free(text) }
        let described = gst_structure_get_string(structure, "name").map { String(cString: $0) }
        let capsText = String(cString: text)
        let media = capsText.split(separator: ",").first.map(String.init) ?? capsText
        return (capsText, described.flatMap { $0.isEmpty ? nil : $0 } ?? media)
    }

    private static func missingFailure(_ missing: (caps: String, codec: String)) -> DecodeFailure {
        DecodeFailure(.notAnImage, tr("No decoder for this video’s %s is installed: install %s.",
                                      OutsideText(missing.codec), PhotoCore.VideoFacts.package(forCaps: missing.caps)))
    }

    private static func monotonicSeconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec)
    }
}
