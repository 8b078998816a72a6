import CExif
import Glibc
import PhotoCore

/// A JPEG's EXIF orientation read and changed, in a decoder process (the photo's bytes are
/// parsed only there): what `IsolatedDecoder.orientationEdit` answers the browser with.
///
/// The orientation is read with libexif. The new payload is the file's own EXIF block with
/// only the orientation's two bytes changed where IFD0 has the tag (`TIFFOrientation`), so
/// maker notes and every offset stay as they are; where it has none, libexif rewrites the
/// block with the tag added; a JPEG without EXIF gets a block holding the orientation alone.
enum OrientedExif {
    /// `turns`: clockwise quarter turns added to the orientation found; `set`: the value to
    /// set instead; neither: only what the file holds.
    static func edit(descriptor: Int32, turns: Int?, set: Int?) -> Result<OrientationEdit, DecodeFailure> {
        var start: [UInt8] = []
        guard PhotoMetadata.readStart(descriptor: descriptor, { start += $0; return true }) else {
            return .failure(DecodeFailure(.unreadable, tr("The file could not be read.")))
        }
        return edit(start: start, turns: turns, set: set)
    }

    /// As `edit(descriptor:…)`, on the file's first bytes (`PhotoMetadata.maxBytes` of them).
    static func edit(start: [UInt8], turns: Int?, set: Int?) -> Result<OrientationEdit, DecodeFailure> {
        guard let segment = JPEGExif.segment(in: start) else {
            return .failure(DecodeFailure(.notAnImage, tr("The file is not a JPEG whose headers can be read.")))
        }
        let block = segment.isEmpty ? nil : Array(start[(segment.lowerBound + 4)..<segment.upperBound])
        let found = block.flatMap(orientation(in:)) ?? .upright
        let target: ExifOrientation?
        if let set { target = ExifOrientation(set) } else if let turns { target = found.rotated(by: turns) } else { target = nil }
        guard let target else { return .success(OrientationEdit(found: found, segment: segment, payload: nil)) }
        let payload: [UInt8]?
        if let block {
            payload = TIFFOrientation.patched(block, to: target) ?? rewritten(block, to: target)
        } else {
            payload = rewritten(nil, to: target)
        }
        guard let payload, payload.count <= OrientationEdit.maximumPayload else {
            return .failure(DecodeFailure(.corrupt, tr("The photo’s EXIF could not be changed.")))
        }
        return .success(OrientationEdit(found: found, segment: segment, payload: payload))
    }

    /// IFD0's orientation as libexif reads it; nil when absent or not one of 1–8.
    static func orientation(in block: [UInt8]) -> ExifOrientation? {
        guard let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        block.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        guard let entry = exif_content_get_entry(data.pointee.ifd.0, EXIF_TAG_ORIENTATION), let bytes = entry.pointee.data,
              entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2 else { return nil }
        return ExifOrientation(Int(exif_get_short(bytes, exif_data_get_byte_order(data))))
    }

    /// `block` (or a new, empty one) saved by libexif with IFD0's orientation set to `target`.
    private static func rewritten(_ block: [UInt8]?, to target: ExifOrientation) -> [UInt8]? {
        guard let data = exif_data_new() else { return nil }
        defer { exif_data_unref(data) }
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        if let block {
            block.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
            let directories = [data.pointee.ifd.0, data.pointee.ifd.1, data.pointee.ifd.2, data.pointee.ifd.3, data.pointee.ifd.4]
            guard directories.contains(where: { ($0?.pointee.count ?? 0) > 0 }) else { return nil }
        } else {
            exif_data_set_byte_order(data, EXIF_BYTE_ORDER_MOTOROLA)
        }
        let order = exif_data_get_byte_order(data)
        var entry = exif_content_get_entry(data.pointee.ifd.0, EXIF_TAG_ORIENTATION)
        if entry == nil, let added = exif_entry_new() {
            exif_content_add_entry(data.pointee.ifd.0, added)
            exif_entry_initialize(added, EXIF_TAG_ORIENTATION)
            exif_entry_unref(added)
            entry = added
        }
        guard let entry, let bytes = entry.pointee.data, entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.size >= 2 else { return nil }
        exif_set_short(bytes, order, UInt16(target.value))
        var saved: UnsafeMutablePointer<UInt8>?
        var count: UInt32 = 0
        exif_data_save_data(data, &saved, &count)
        guard let saved, count > 0 else { return nil }
        defer { free(saved) }
        let out = Array(UnsafeBufferPointer(start: saved, count: Int(count)))
        return out.starts(with: JPEGExif.header) && orientation(in: out) == target ? out : nil
    }
}
