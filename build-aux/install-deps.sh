#!/usr/bin/env bash
# Install what gphotobrowse needs on Debian 12 / Ubuntu, and check the Swift toolchain.
#   install-deps.sh run    build and run the app
#   install-deps.sh test   the above, plus meson, the validators and the UI test tools
# Only missing packages are installed, so a ready machine needs no network and no sudo.
set -euo pipefail

run_pkgs=(
  libgtk-4-dev libadwaita-1-dev libgdk-pixbuf-2.0-dev libexif-dev pkg-config shared-mime-info
  # web albums: HTTP(S) with libsoup 3; TLS through GIO's glib-networking
  libsoup-3.0-dev glib-networking
  # web albums' photo lists: JSON with json-glib, folder listing pages with libxml2's HTML parser
  libjson-glib-dev libxml2-dev
  # the drawing board: cairo for rendering, Pango (pangocairo) for its texts in any script
  libcairo2-dev libpango1.0-dev
  # decoder processes: confined by bubblewrap where it runs, and always by seccomp
  bubblewrap libseccomp-dev
  # gdk-pixbuf loaders: SVG, WebP, HEIC/HEIF, AVIF
  librsvg2-common webp-pixbuf-loader heif-gdk-pixbuf libavif-gdk-pixbuf
  # the decoder processes' own decoders: cameras' RAW files (LibRaw), HEIC and AVIF
  # (libheif), JPEG XL (libjxl), colour profiles converted to sRGB (Little CMS), and a
  # JPEG's region decoded alone for the viewer's tiles (libjpeg-turbo: libjpeg-dev names
  # Debian's libjpeg62-turbo-dev and Ubuntu's libjpeg-turbo8-dev), and a large PNG's or
  # TIFF's, a row, strip or tile at a time (libpng, libtiff)
  libraw-dev libheif-dev libjxl-dev liblcms2-dev libjpeg-dev libpng-dev libtiff-dev
  # videos: GStreamer reads their frames, lengths and dates in the decoder processes (its
  # plugins: demuxers, VP8/VP9, FFmpeg's decoders, AV1's dav1d), GTK's media backend plays them
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-libav libgtk-4-media-gstreamer
  # the photo index: marks, cameras and dates kept between runs
  libsqlite3-dev
  hicolor-icon-theme adwaita-icon-theme
  # a font for the interface (the packages above only recommend one)
  fonts-dejavu-core
  # translations: msgfmt compiles them for the build tree
  gettext
  # the settings schema: glib-compile-schemas compiles it for the build tree (and gsettings
  # reads the settings back in the tests)
  libglib2.0-bin
  # folders on other machines (sftp, smb, WebDAV, phones) through GIO
  gvfs-backends
  # Set as Background through the desktop portal (libportal, with GTK 4 windows as parents)
  libportal-dev libportal-gtk4-dev
)
test_pkgs=(
  meson ninja-build desktop-file-utils appstream
  # UI tests: a headless X server driven from Python through GTK and AT-SPI
  xvfb xauth xdotool imagemagick python3 python3-pytest python3-pytest-xdist python3-gi gir1.2-gtk-4.0
  dbus-x11 at-spi2-core
  # what a screen reader reads: the app's accessible tree over AT-SPI, from Python
  gir1.2-atspi-2.0
  # a remote folder for real: sshd on a loopback port, reached through GVfs's sftp backend
  openssh-server openssh-client
  # the web client's tests: a self-signed certificate for an HTTPS server on loopback
  openssl
  # GNOME's thumbnail factory, to check that it accepts our thumbnails and we use its own
  gir1.2-gnomedesktop-3.0 gir1.2-gdkpixbuf-2.0 libgdk-pixbuf2.0-bin
  # Chinese glyphs for the translated interface in screenshots
  fonts-droid-fallback
  # printing: a printed PDF turned into pixels (pdftoppm) and its page size read (pdfinfo)
  poppler-utils
  # Set as Background: GNOME's background schemas, the fallback when no portal runs
  gsettings-desktop-schemas
  # the tools the benchmarks compare with (djpeg: libjpeg-turbo alone; curl: the web
  # benchmark's network floor), and /usr/bin/time for peak memory; gThumb, which
  # first-screen, albums and remote compare with, is left to install by hand
  libvips-tools libjpeg-turbo-progs libimage-exiftool-perl hyperfine time curl
  # the formats' test files were made with these (cjxl, heif-enc, avifenc); Pillow's
  # ImageCms gives the sRGB a colour profile's pixels should show as
  libjxl-tools libheif-examples libavif-bin python3-pil
  # test videos are made with gst-launch-1.0
  gstreamer1.0-tools
)

case "${1:-}" in
  run) pkgs=("${run_pkgs[@]}") ;;
  test) pkgs=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

# Swift is not packaged by Debian: it comes from swift.org, so we only check for it.
swift_help() {
  echo "Get Swift 6.0 or newer from https://www.swift.org/install/linux/" >&2
  echo "and put its usr/bin directory on PATH, e.g. export PATH=/opt/swift/usr/bin:\$PATH" >&2
}
if ! swift_version=$(swift --version 2>/dev/null); then
  echo "error: no Swift toolchain found on PATH (swift --version failed)." >&2
  swift_help
  exit 1
fi
swift_major=$(sed -n 's/.*Swift version \([0-9][0-9]*\)\..*/\1/p' <<<"$swift_version" | head -n 1)
if [[ -z "$swift_major" || "$swift_major" -lt 6 ]]; then
  echo "error: Swift 6.0 or newer is needed, found: $(head -n 1 <<<"$swift_version")" >&2
  swift_help
  exit 1
fi

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "note: not a Debian/Ubuntu system; install the equivalents of: ${pkgs[*]}" >&2
  exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
  if [[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]]; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "error: run as root or install sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "Installing: ${missing[*]}"
"${sudo[@]}" apt-get update -q

# Some loaders are missing from older releases: skip what apt has no candidate for.
available=()
for p in "${missing[@]}"; do
  candidate=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ { print $2 }')
  if [[ -n "$candidate" && "$candidate" != "(none)" ]]; then
    available+=("$p")
  else
    echo "note: package $p is not available here, skipping it" >&2
  fi
done
if [[ ${#available[@]} -gt 0 ]]; then
  # env, not export: sudo drops the caller's environment.
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${available[@]}"
fi
