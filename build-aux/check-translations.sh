#!/usr/bin/env bash
# Checks the translations: every source file with marked strings is in po/POTFILES, every
# catalog compiles (msgfmt --check: placeholders match, plural forms are right), and every
# string marked in the sources has a finished translation in every language of po/LINGUAS,
# with no access key added in parentheses.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
for tool in xgettext msgfmt msgmerge msgattrib; do
  command -v "$tool" >/dev/null || { echo "check-translations: $tool is missing (apt-get install gettext)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

listed=$(grep -v '^#' po/POTFILES | sed '/^$/d' | sort)
marked=$(grep -rlE '\btrn?\("' Sources --include=*.swift | grep -v '^Sources/PhotoCore/Localization/' | sort)
missing=$(comm -13 <(echo "$listed") <(echo "$marked"))
if [[ -n "$missing" ]]; then
  echo "check-translations: files with marked strings missing from po/POTFILES:" >&2
  echo "$missing" >&2
  status=1
fi
while read -r file; do
  [[ -e "$file" ]] || { echo "check-translations: po/POTFILES lists $file, which does not exist" >&2; status=1; }
done <<<"$listed"

mapfile -t args < po/xgettext-arguments
# Swift is read as C: its string literals and comments are C's. xgettext says so for each
# file; that is expected.
xgettext "${args[@]}" --package-name=gphotobrowse -f <(echo "$listed") -o "$work/gphotobrowse.pot" 2> >(grep -v "extension 'swift' is unknown" >&2)

while read -r lang; do
  [[ -z "$lang" || "$lang" == \#* ]] && continue
  po="po/$lang.po"
  if ! msgfmt --check -o /dev/null "$po"; then
    echo "check-translations: $po does not compile" >&2
    status=1
    continue
  fi
  # An access key added in parentheses ("保存(_S)", as GTK's own Chinese catalogs write
  # them) shows on the button as "保存(S)": labels are translated without it.
  if keyed=$(grep -nE '^msgstr.*[(（]_[[:alnum:]][)）]' "$po"); then
    echo "check-translations: $po gives labels an access key in parentheses, shown as \"(S)\" on the button:" >&2
    echo "$keyed" >&2
    status=1
  fi
  msgmerge --quiet --no-fuzzy-matching -o "$work/$lang.po" "$po" "$work/gphotobrowse.pot"
  untranslated=$(msgattrib --untranslated --no-obsolete --no-wrap "$work/$lang.po" | grep -c '^msgid ' || true)
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete --no-wrap "$work/$lang.po" | grep -c '^msgid ' || true)
  # The header is one msgid "" entry in each listing that has any entry.
  (( untranslated > 0 )) && untranslated=$((untranslated - 1))
  (( fuzzy > 0 )) && fuzzy=$((fuzzy - 1))
  if (( untranslated > 0 || fuzzy > 0 )); then
    echo "check-translations: $po lacks $untranslated translations and has $fuzzy unfinished ones:" >&2
    msgattrib --untranslated --no-obsolete --no-wrap "$work/$lang.po" | grep '^msgid ' | sed 1d >&2 || true
    msgattrib --only-fuzzy --no-obsolete --no-wrap "$work/$lang.po" | grep '^msgid ' | sed 1d >&2 || true
    status=1
  else
    echo "check-translations: $po translates every string"
  fi
done < po/LINGUAS
exit $status
