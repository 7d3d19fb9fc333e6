#!/usr/bin/env bash
# Engine speed, natively and in wasm (V8 through Node's WASI), on the benchmark
# pipeline (4 operators, parallelism 4, a checkpoint every 100 simulated ms, trace off),
# over a whole run from a cold start — no untimed warm-up, V8's default flags, so
# the time before V8 has optimised the hot loop counts — then the ratio of each
# wasm build to native:
#   release  the engine's benchmark build (opt-level 3)
#   web      the page's code-size profile (Cargo.toml [profile.web]), under Node
#   page     the page's own release build (trunk, wasm-opt, wasm-bindgen) in headless
#            Chromium: what a class runs (DIST=<dir> measures another build)
# plus the criterion benchmark (CRITERION=0 skips it). Not part of CI: timings
# need a quiet machine; the load average is printed with the figures.
# Every run steps the engine in chunks (engine::soak::run), as the page does once per
# frame: V8 cannot swap optimised code into a running wasm function.
# Usage: [DIST=<dir>] bash scripts/bench.sh [EVENTS [EVERY]]   (default 5,000,000; a
# line every million events, or every EVERY — a smaller figure shows when V8 tiers up)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
EVENTS="${1:-5000000}"
EVERY="${2:-1000000}"
cargo build --release -p checkpoint-engine --example soak
rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1
cargo build --release -p checkpoint-engine --example soak --target wasm32-wasip1
cargo build --profile web -p checkpoint-engine --example soak --target wasm32-wasip1
rate() { sed -n 's/^total: .* = \([0-9.]*\) M events\/s$/\1/p' | tail -1; }
echo "== native"
target/release/examples/soak "$EVENTS" "$EVERY" | tee /dev/stderr | rate > /tmp/bench-native.$$
for build in release web; do
  echo "== wasm $build (node $(node --version), WASI)"
  node --no-warnings scripts/bench-wasm.mjs "target/wasm32-wasip1/$build/examples/soak.wasm" "$EVENTS" "$EVERY" \
    | tee /dev/stderr | rate > "/tmp/bench-$build.$$"
done
echo "== wasm page (headless Chromium, the page's own release build)"
# A subshell: serve-for-measuring.sh builds dist/ unless DIST names a build, serves it
# and stops the server when the subshell exits.
(source scripts/serve-for-measuring.sh && node scripts/bench-page.cjs "$BASE_URL" "$EVENTS" "$EVERY") \
  | tee /dev/stderr | rate > /tmp/bench-page.$$
native="$(cat /tmp/bench-native.$$)"
for build in release web page; do
  wasm="$(cat "/tmp/bench-$build.$$")"
  echo "whole run, $EVENTS events: native $native, wasm $build $wasm M events/s = $(python3 -c "print(f'{100 * $wasm / $native:.0f}')") % of native"
done
rm -f /tmp/bench-*.$$
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
if [ "${CRITERION:-1}" = 1 ]; then
  cargo bench -p checkpoint-engine --bench engine
fi
