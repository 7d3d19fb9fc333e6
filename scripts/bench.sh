#!/usr/bin/env bash
# Engine speed, natively and in wasm (V8 through Node's WASI), on the benchmark
# pipeline (4 operators, parallelism 4, a checkpoint every 100 simulated ms, trace off),
# plus the criterion benchmark. Not part of CI: timings need a quiet machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
EVENTS="${1:-10000000}"
cargo build --release -p checkpoint-engine --example soak
rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1
cargo build --release -p checkpoint-engine --example soak --target wasm32-wasip1
echo "== native"
target/release/examples/soak "$EVENTS"
echo "== wasm (node $(node --version), WASI)"
node --no-warnings scripts/bench-wasm.mjs target/wasm32-wasip1/release/examples/soak.wasm "$EVENTS"
if [ "${CRITERION:-1}" = 1 ]; then
  cargo bench -p checkpoint-engine --bench engine
fi
