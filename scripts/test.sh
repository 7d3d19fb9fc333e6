#!/usr/bin/env bash
# Every test: native cargo tests (seeded property loops in release mode), the
# differential tests against real Flink, the browser tests in headless Chromium,
# and an offline release build of the page.
# Installs whatever is missing first. CI runs exactly this (.ci/run).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
cd "$ROOT"

log "native tests (optimized: the seeded loops run over hundreds of seeds)"
cargo test --profile ci --workspace

log "differential tests: the lab against real Flink $FLINK_VERSION (fails if Java or Flink's jars are missing)"
ensure_flink
cargo test --profile ci -p checkpoint-engine --test flink differential -- --ignored

log "browser tests (wasm-bindgen-test in headless Chromium)"
# The runner's default budget for a whole test binary is 20 s; a loaded machine
# (CI shares it) can need more, so allow 5 minutes.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=300 \
  cargo test -p checkpoint-lab --target wasm32-unknown-unknown

log "release build of the page (offline)"
trunk build --release
ls -l dist/*.wasm
log "all green"
