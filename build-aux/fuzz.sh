#!/usr/bin/env bash
# Fuzz the decoder message format (DecoderMessage and the requests and replies read from it)
# with libFuzzer for a bounded time. See docs/fuzzing.md.
#   fuzz.sh [SECONDS]   default 60; exits non-zero if the fuzzer finds a crash
set -euo pipefail

seconds=${1:-60}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: $0 [SECONDS]" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

out=build/fuzz
bin=$out/decoder-message-fuzz
seeds=fuzz/corpus/decoder-messages
mkdir -p "$out/corpus" "$out/module-cache"

# PhotoCore and the fuzz target as one module: the target reaches PhotoCore's types without
# an import, and the whole module is instrumented for coverage and AddressSanitizer. The
# toolchain's lld links it (gold warns about every ASan helper symbol).
mapfile -t sources < <(find Sources/PhotoCore -name '*.swift' | LC_ALL=C sort)
sources+=(fuzz/DecoderMessageFuzz.swift)
echo "fuzz.sh: compiling ${#sources[@]} files into $bin"
swiftc -module-name PhotoCoreFuzz -parse-as-library \
  -swift-version 6 -enable-upcoming-feature ExistentialAny \
  -sanitize=fuzzer,address -O -g -use-ld=lld \
  -module-cache-path "$out/module-cache" -I Sources/CIntl \
  "${sources[@]}" -o "$bin"

echo "fuzz.sh: fuzzing for ${seconds}s (new inputs in $out/corpus, seeds in $seeds)"
# Without Swift's own backtracer, libFuzzer reports a trap itself (its reader thread would
# trip AddressSanitizer and bury the stack).
export SWIFT_BACKTRACE=enable=no
status=0
"$bin" -max_total_time="$seconds" -max_len=70000 -artifact_prefix="$out/" \
  "$out/corpus" "$seeds" || status=$?

if [[ $status -ne 0 ]]; then
  echo "fuzz.sh: FAILED (exit $status); the input is in $out/ (crash-*, timeout-*, oom-*)." >&2
  echo "fuzz.sh: reproduce with: SWIFT_BACKTRACE=enable=no $bin $out/crash-..." >&2
  exit "$status"
fi
echo "fuzz.sh: no crash in ${seconds}s"
