#!/usr/bin/env bash
# Run every test: SwiftPM tests and the data validators through meson, then the
# UI and integration tests in tests/. Keeps going after a failure and exits non-zero if any failed.
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

# `meson test` builds only what the tests themselves need: build everything first, so that
# the UI tests below run the app as it is now.
if ! meson_setup; then
  failed+=(meson-setup)
elif ! meson compile -C build; then
  failed+=(meson-build)
elif meson test -C build --print-errorlogs; then
  passed+=(meson)
else
  failed+=(meson)
fi

# The benchmark executable runs our thumbnail pipeline for the integration tests; build it
# in meson's SwiftPM tree, next to the app.
if swift build --package-path "$root" --scratch-path build/swiftpm -c release --product gphotobrowse-bench; then
  export GPHOTOBROWSE_BENCH="$root/build/swiftpm/release/gphotobrowse-bench"
else
  failed+=(bench-build)
fi

# The decoder message format under libFuzzer for a short while (docs/fuzzing.md).
if build-aux/fuzz.sh 30; then
  passed+=(fuzz)
else
  failed+=(fuzz)
fi

# The app under Xvfb (tests/ui) and against other programs (tests/integration). Debian's
# python3 explicitly: a pyenv or venv python on PATH lacks the gi module.
export GPHOTOBROWSE_BIN="$root/build/gphotobrowse"
status=0
/usr/bin/python3 -m pytest -q -rs tests/ui tests/integration || status=$?
case $status in
  0) passed+=(pytest) ;;
  *) failed+=(pytest) ;;
esac

if [[ ${#failed[@]} -eq 0 ]]; then
  echo "test.sh: PASSED (${passed[*]:-nothing to run})"
else
  echo "test.sh: FAILED (${failed[*]})${passed[*]:+; passed: ${passed[*]}}"
  exit 1
fi
