#!/usr/bin/env bash
# Run every test: SwiftPM tests and the data validators through meson, then the
# UI tests in tests/ui. Keeps going after a failure and exits non-zero if any failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

build-aux/install-deps.sh test || { echo "test.sh: FAILED (dependencies)"; exit 1; }

failed=()
passed=()

# Configure build/, reconfiguring an existing one (or starting over if that fails).
meson_setup() {
  if [[ -f build/meson-private/coredata.dat ]]; then
    meson setup --reconfigure build || meson setup --wipe build
  else
    meson setup build
  fi
}

if ! meson_setup; then
  failed+=(meson-setup)
elif meson test -C build --print-errorlogs; then
  passed+=(meson)
else
  failed+=(meson)
fi

if [[ -d tests/ui ]]; then
  # Debian's python3 explicitly: a pyenv/venv python on PATH lacks the gi module.
  export GPHOTOBROWSE_BIN="$root/build/gphotobrowse"
  status=0
  /usr/bin/python3 -m pytest -q tests/ui || status=$?
  case $status in
    0) passed+=(ui) ;;
    5) echo "note: no UI tests collected in tests/ui" ;;  # pytest: nothing to run
    *) failed+=(ui) ;;
  esac
fi

if [[ ${#failed[@]} -eq 0 ]]; then
  echo "test.sh: PASSED (${passed[*]:-nothing to run})"
else
  echo "test.sh: FAILED (${failed[*]})${passed[*]:+; passed: ${passed[*]}}"
  exit 1
fi
