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
# python3 explicitly: a pyenv or venv python on PATH lacks the gi module. Each test starts
# its own app on its own session bus, and each pytest worker its own X server, so the tests
# run side by side (pytest-xdist) on one worker more than there are cores.
export GPHOTOBROWSE_BIN="$root/build/gphotobrowse"
workers=$(( $(nproc) + 1 ))
(( workers > 6 )) && workers=6
pytest=(/usr/bin/python3 -m pytest -q -rs -p no:cacheprovider -n "$workers")
reports="$root/build/test-reports"
rm -rf "$reports" && mkdir -p "$reports"

# Tests marked normal_user check what a person without root sees (a mode-000 folder stays
# closed to them); tests marked root need root (a tmpfs mounted inside a folder). Run as
# root, this script runs the first set as a throwaway user made for the run, so that both
# sets run; run as a normal user, the root tests are skipped and listed below.
status=0
if [[ $(id -u) -eq 0 ]]; then
  "${pytest[@]}" --junitxml="$reports/root.xml" -m "not normal_user" tests/ui tests/integration || status=$?
  if bash build-aux/run-as-normal-user.sh "$reports/normal-user.xml" "${pytest[@]}" -m normal_user tests/ui; then
    passed+=(pytest-normal-user)
  else
    failed+=(pytest-normal-user)
  fi
else
  "${pytest[@]}" --junitxml="$reports/user.xml" tests/ui tests/integration || status=$?
fi
case $status in
  0) passed+=(pytest) ;;
  *) failed+=(pytest) ;;
esac

# Every skipped test by name and reason: a run that skipped something does not say PASSED.
skipped=$(/usr/bin/python3 build-aux/skipped-tests.py "$reports"/*.xml)

if [[ -n "$skipped" ]]; then
  echo "test.sh: skipped tests:"
  echo "$skipped"
fi
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "test.sh: FAILED (${failed[*]})${passed[*]:+; passed: ${passed[*]}}"
  exit 1
elif [[ -n "$skipped" ]]; then
  echo "test.sh: SKIPPED $(grep -c . <<<"$skipped") tests (listed above); the rest passed: ${passed[*]}"
else
  echo "test.sh: PASSED (${passed[*]:-nothing to run})"
fi
