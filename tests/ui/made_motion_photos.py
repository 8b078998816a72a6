"""Motion photos and Live Photos made by the tests themselves: a JPEG made with ImageMagick
(`make_solid`), a movie made with GStreamer (`made_videos.make_video`, MPEG-4 Part 2 in MP4),
put together as phones write them:

- Google's Motion Photo format 1.0: an XMP packet (APP1) saying `GCamera:MotionPhoto="1"`
  with a `Container:Directory` whose `MotionPhoto` item is the movie appended after the JPEG;
- Samsung's: the movie appended after a `MotionPhoto_Data` record, listed in an `SEFH`
  directory that the file's last bytes (`SEFT`) point to;
- broken: the XMP of a motion photo, but no movie where it points;
- an Apple Live Photo: a still and a MOV of the same name side by side, as Photos exports them.

Run as a program (`python3 made_motion_photos.py OUT.jpg --kind google`) for the benchmark."""

import argparse
import struct
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
    google, samsung or broken (tags, no movie)."""
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
    elif kind == "broken":
        # The tags promise a movie of this length; the bytes there are the JPEG's, no MP4.
        data = with_xmp(jpeg, motion_xmp(len(movie)))
    else:
        raise ValueError(kind)
    path.write_bytes(data)
    return path


def make_live_photo(folder: Path, stem: str, colour: str, movie_colours: tuple[str, ...] = ("magenta",),
                    seconds: int = 2) -> tuple[Path, Path]:
    """An Apple Live Photo as exported: STEM.JPG and STEM.MOV side by side."""
    still = make_solid(folder / f"{stem}.JPG", colour)
    movie = make_video(folder / f"{stem}.MOV", movie_colours, seconds=seconds)
    return still, movie


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--kind", default="google")
    parser.add_argument("--colour", default="orange")
    arguments = parser.parse_args()
    make_motion_photo(arguments.out, arguments.colour, kind=arguments.kind)
