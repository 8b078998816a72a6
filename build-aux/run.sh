#!/usr/bin/env bash
# Build gphotobrowse (release) and run it.
#   run.sh [FOLDER|FILE...]   with no argument, opens the Pictures folder if there is one
set -euo pipefail

# The repo root from this script's location; we pass it to SwiftPM instead of
# cd-ing there, so relative paths given as arguments still work.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

"$root/build-aux/install-deps.sh" run
swift build --quiet -c release --package-path "$root" --product gphotobrowse
swift build --quiet -c release --package-path "$root" --product gphotobrowse-decoder
bindir="$(swift build -c release --package-path "$root" --show-bin-path)"
bin="$bindir/gphotobrowse"
# The translations, where the app looks for them beside itself.
"$root/build-aux/compile-catalogs.sh" "$bindir/locale"
# The settings schema, where the app looks for it beside itself.
mkdir -p "$bindir/schemas"
glib-compile-schemas --strict --targetdir "$bindir/schemas" "$root/data"

if [[ $# -eq 0 ]]; then
  # xdg-user-dir answers $HOME when no Pictures folder is configured.
  pictures=$(xdg-user-dir PICTURES 2>/dev/null || true)
  [[ -z "$pictures" || "$pictures" == "$HOME" ]] && pictures="$HOME/Pictures"
  # Without an argument the app shows its welcome page.
  [[ -d "$pictures" ]] && set -- "$pictures"
fi
exec "$bin" "$@"
