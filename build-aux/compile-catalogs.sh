#!/usr/bin/env bash
# Compile the translations (po/*.po) into DIR/LANG/LC_MESSAGES/gphotobrowse.mo, where the
# app looks for them beside its executable (DIR = its folder + /locale). The README's run
# command does this for SwiftPM's build tree; meson does the same for its own (po/).
#   compile-catalogs.sh DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=${1:?usage: compile-catalogs.sh DIR}
if ! command -v msgfmt >/dev/null; then
  echo "compile-catalogs.sh: msgfmt is missing (apt-get install gettext); the app will speak English" >&2
  exit 0
fi
while read -r lang; do
  [[ -z "$lang" || "$lang" == \#* ]] && continue
  mkdir -p "$dest/$lang/LC_MESSAGES"
  msgfmt --check -o "$dest/$lang/LC_MESSAGES/gphotobrowse.mo.tmp" "$root/po/$lang.po"
  mv "$dest/$lang/LC_MESSAGES/gphotobrowse.mo.tmp" "$dest/$lang/LC_MESSAGES/gphotobrowse.mo"
done < "$root/po/LINGUAS"
