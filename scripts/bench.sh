#!/usr/bin/env bash
# Engine speed, natively and in wasm (V8 through Node's WASI), on the benchmark
# pipeline (4 operators, parallelism 4, a checkpoint every 100 simulated ms, trace off),
# over a whole run from a cold start — no untimed warm-up, V8's default flags, so
# the time before V8 has optimised the hot loop counts — then the ratio of each
# wasm build to native:
#   release  the engine's benchmark build (opt-level 3)
#   web      the page's code-size profile (Cargo.toml [profile.web]), what a class runs
# plus the criterion benchmark (CRITERION=0 skips it). Not part of CI: timings
# need a quiet machine; the load average is printed with the figures.
# Usage: bash scripts/bench.sh [EVENTS]   (default 5,000,000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
EVENTS="${1:-5000000}"
cargo build --release -p checkpoint-engine --example soak
rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1
cargo build --release -p checkpoint-engine --example soak --target wasm32-wasip1
cargo build --profile web -p checkpoint-engine --example soak --target wasm32-wasip1
rate() { sed -n 's/^total: .* = \([0-9.]*\) M events\/s$/\1/p' | tail -1; }
echo "== native"
target/release/examples/soak "$EVENTS" | tee /dev/stderr | rate > /tmp/bench-native.$$
for build in release web; do
  echo "== wasm $build (node $(node --version), WASI)"
  node --no-warnings scripts/bench-wasm.mjs "target/wasm32-wasip1/$build/examples/soak.wasm" "$EVENTS" \
    | tee /dev/stderr | rate > "/tmp/bench-$build.$$"
done
native="$(cat /tmp/bench-native.$$)"
for build in release web; do
  wasm="$(cat "/tmp/bench-$build.$$")"
  echo "whole run, $EVENTS events: native $native, wasm $build $wasm M events/s = $(python3 -c "print(f'{100 * $wasm / $native:.0f}')") % of native"
done
rm -f /tmp/bench-*.$$
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
if [ "${CRITERION:-1}" = 1 ]; then
  cargo bench -p checkpoint-engine --bench engine
fi
