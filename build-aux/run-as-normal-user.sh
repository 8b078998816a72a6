#!/usr/bin/env bash
# Run a pytest command as a throwaway user without root's powers, on a copy of the tree.
#   run-as-normal-user.sh REPORT.xml PYTEST-COMMAND...
# Run as root by build-aux/test.sh for the tests marked normal_user: what root does not see
# (a mode-000 folder stays closed to everyone else). The user is made for the run and
# removed after it; the copy holds the tests, the data and the built app (not SwiftPM's tree).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
report=$1
shift
[[ $(id -u) -eq 0 ]] || { echo "run-as-normal-user.sh: run as root" >&2; exit 2; }

user="gpb-test-$$"
work=$(mktemp -d /tmp/gpb-normal-user-XXXXXX)
cleanup() {
  pkill -u "$user" 2>/dev/null || true
  userdel "$user" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

useradd --no-create-home --home-dir "$work" --shell /bin/sh "$user"
tar -C "$root" --exclude=./build/swiftpm --exclude=./build/swiftpm-test --exclude=./.git \
  --exclude=./build/test-reports -cf - . | tar -C "$work" -xf -
mkdir -p "$work/reports"
chown -R "$user:" "$work"
chmod 755 "$work"

status=0
runuser -u "$user" -- env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8 \
  GPHOTOBROWSE_BIN="$work/build/gphotobrowse" \
  bash -c 'cd "$1" && shift && exec "$@"' _ "$work" \
  "$@" --junitxml="$work/reports/report.xml" || status=$?
cp "$work/reports/report.xml" "$report" 2>/dev/null || true
echo "run-as-normal-user.sh: ran as $user (uid $(id -u "$user" 2>/dev/null || echo '?'))"
exit $status
