"""Motion photos and Live Photos made by the tests themselves: a JPEG made with ImageMagick
(`make_solid`), a movie made with GStreamer (`made_videos.make_video`, MPEG-4 Part 2 in MP4),
put together as phones write them:

- Google's Motion Photo format 1.0: an XMP packet (APP1) saying `GCamera:MotionPhoto="1"`
  with a `Container:Directory` whose `MotionPhoto` item is the movie appended after the JPEG;
- Samsung's: the movie appended after a `MotionPhoto_Data` record, listed in an `SEFH`
  directory that the file's last bytes (`SEFT`) point to;
- Samsung's HEIC: the movie in a top-level `mpvd` box after the image's (libheif's heif-enc
  makes the HEIC);
- broken: the XMP of a motion photo, but no movie where it points;
- an Apple Live Photo: a still and a MOV of the same name side by side, as Photos exports them,
  or with Apple's content identifier in both (the still's maker note, the movie's QuickTime
  metadata: exiftool reads them as Apple:MediaGroupUUID and Keys:ContentIdentifier), which
  pairs them whatever their names.

Run as a program (`python3 made_motion_photos.py OUT.jpg --kind google`) for the benchmark."""

import argparse
import struct
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from harness import make_solid  # noqa: E402
from made_videos import make_video  # noqa: E402

XMP_HEADER = b"http://ns.adobe.com/xap/1.0/\x00"


def motion_xmp(movie_length: int) -> bytes:
    return f"""<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
    xmlns:Container="http://ns.google.com/photos/1.0/container/"
    xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
    GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0">
   <Container:Directory>
    <rdf:Seq>
     <rdf:li rdf:parseType="Resource">
      <Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/>
     </rdf:li>
     <rdf:li rdf:parseType="Resource">
      <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="{movie_length}" Item:Padding="0"/>
     </rdf:li>
    </rdf:Seq>
   </Container:Directory>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>""".encode()


def with_xmp(jpeg: bytes, xmp: bytes) -> bytes:
    payload = XMP_HEADER + xmp
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def samsung_trailer(movie: bytes) -> bytes:
    """The movie's record and the SEF directory that lists it, to append after the JPEG."""
    name = b"MotionPhoto_Data"
    record = struct.pack("<HHI", 0, 0x0a30, len(name)) + name + movie
    directory = b"SEFH" + struct.pack("<II", 106, 1) + struct.pack("<HHII", 0, 0x0a30, len(record), len(record))
    return record + directory + struct.pack("<I", len(directory)) + b"SEFT"


def make_motion_photo(path: Path, colour: str, movie_colours: tuple[str, ...] = ("magenta",), kind: str = "google",
                      size: str = "640x480", seconds: int = 2) -> Path:
    """A motion photo showing `colour`, its movie `movie_colours` for `seconds`; `kind`:
    google, samsung, samsung-heic (the path's stem with .heic) or broken (tags, no movie)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    make_solid(path, colour, size=size)
    jpeg = path.read_bytes()
    movie_path = path.with_name(path.stem + ".movie.mp4")
    make_video(movie_path, movie_colours, seconds=seconds)
    movie = movie_path.read_bytes()
    movie_path.unlink()
    if kind == "google":
        data = with_xmp(jpeg, motion_xmp(len(movie))) + movie
    elif kind == "samsung":
        data = jpeg + samsung_trailer(movie)
    elif kind == "samsung-heic":
        # Samsung's HEIC: the movie in a top-level `mpvd` box after the image's boxes.
        heif = path.with_name(path.stem + ".heic")
        subprocess.run(["heif-enc", "-q", "90", "-o", str(heif), str(path)], check=True, stdout=subprocess.DEVNULL)
        path.unlink()
        path = heif
        data = heif.read_bytes() + atom(b"mpvd", movie)
    elif kind == "broken":
        # The tags promise a movie of this length; the bytes there are the JPEG's, no MP4.
        data = with_xmp(jpeg, motion_xmp(len(movie)))
    else:
        raise ValueError(kind)
    path.write_bytes(data)
    return path


def apple_exif(identifier: str) -> bytes:
    """An EXIF APP1 payload as an iPhone writes it, reduced to what pairs a Live Photo: IFD0
    (Make "Apple", the EXIF IFD's offset), the EXIF IFD (the maker note), and Apple's maker
    note: "Apple iOS\\0", version 1, "MM", then its directory at byte 14 whose offsets count
    from the maker note's start, tag 0x0011 (the content identifier) a string."""
    text = identifier.encode() + b"\0"
    entries = 2
    data_at = 14 + 2 + entries * 12 + 4
    note = b"Apple iOS\0" + b"\0\x01" + b"MM" + struct.pack(">H", entries)
    note += struct.pack(">HHII", 0x0001, 9, 1, 14)  # MakerNoteVersion, int32s
    note += struct.pack(">HHII", 0x0011, 2, len(text), data_at)
    note += struct.pack(">I", 0) + text
    make = b"Apple\0"
    ifd0 = 8
    exif_ifd = ifd0 + 2 + 2 * 12 + 4
    make_at = exif_ifd + 2 + 12 + 4
    note_at = make_at + len(make)
    tiff = b"MM\0\x2a" + struct.pack(">I", ifd0)
    tiff += struct.pack(">H", 2) + struct.pack(">HHII", 0x010F, 2, len(make), make_at)
    tiff += struct.pack(">HHII", 0x8769, 4, 1, exif_ifd) + struct.pack(">I", 0)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x927C, 7, len(note), note_at) + struct.pack(">I", 0)
    tiff += make + note
    return b"Exif\0\0" + tiff


def with_exif(jpeg: bytes, payload: bytes) -> bytes:
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def atom(kind: bytes, content: bytes) -> bytes:
    return struct.pack(">I", 8 + len(content)) + kind + content


def content_identifier_meta(identifier: str) -> bytes:
    """The movie's metadata as Apple's QuickTime File Format lays it out: a `meta` atom (no
    version and flags in QuickTime) holding `hdlr` (handler `mdta`), `keys` (version and
    flags, the count, then each key's size, namespace `mdta` and name) and `ilst` (an atom per
    value, typed by its key's number from 1, holding a `data` atom: type 1, UTF-8; locale 0)."""
    key = b"com.apple.quicktime.content.identifier"
    hdlr = atom(b"hdlr", b"\0" * 8 + b"mdta" + b"\0" * 12 + b"\0")
    keys = atom(b"keys", struct.pack(">II", 0, 1) + struct.pack(">I", 8 + len(key)) + b"mdta" + key)
    ilst = atom(b"ilst", atom(struct.pack(">I", 1), atom(b"data", struct.pack(">II", 1, 0) + identifier.encode())))
    return atom(b"meta", hdlr + keys + ilst)


def with_content_identifier(movie: bytes, identifier: str) -> bytes:
    """The movie with the identifier's metadata added at the end of its `moov`, which mp4mux
    writes last (after `mdat`): no chunk offset moves."""
    at = 0
    while at + 8 <= len(movie):
        size, kind = struct.unpack(">I4s", movie[at:at + 8])
        assert size >= 8, "a box of 64-bit size or up to the end of the file"
        if kind == b"moov":
            assert at + size == len(movie), "moov is not the file's last box"
            meta = content_identifier_meta(identifier)
            return movie[:at] + struct.pack(">I", size + len(meta)) + movie[at + 4:] + meta
        at += size
    raise ValueError("no moov")


def make_live_photo(folder: Path, stem: str, colour: str, movie_colours: tuple[str, ...] = ("magenta",),
                    seconds: int = 2, identifier: str | None = None, movie_stem: str | None = None,
                    heic: bool = False, movie_identifier: str | None = None) -> tuple[Path, Path]:
    """An Apple Live Photo as exported: STEM.JPG (STEM.HEIC with `heic`) and STEM.MOV side by
    side (the movie named MOVIE_STEM.MOV when given); with `identifier`, both carry it as an
    iPhone writes it (the still's maker note, the movie's metadata); the movie carries
    `movie_identifier` instead when given."""
    still = make_solid(folder / f"{stem}.JPG", colour)
    if identifier:
        still.write_bytes(with_exif(still.read_bytes(), apple_exif(identifier)))
    if heic:
        heif = folder / f"{stem}.HEIC"
        subprocess.run(["heif-enc", "-q", "90", "-o", str(heif), str(still)], check=True, stdout=subprocess.DEVNULL)
        still.unlink()
        still = heif
    movie = make_video(folder / f"{movie_stem or stem}.MOV", movie_colours, seconds=seconds)
    if movie_identifier or identifier:
        movie.write_bytes(with_content_identifier(movie.read_bytes(), movie_identifier or identifier))
    return still, movie


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--kind", default="google")
    parser.add_argument("--colour", default="orange")
    arguments = parser.parse_args()
    make_motion_photo(arguments.out, arguments.colour, kind=arguments.kind)
