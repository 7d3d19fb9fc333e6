#!/usr/bin/env bash
# Every test: native cargo tests (seeded property loops in release mode), the
# differential tests against real Flink, the browser tests in headless Chromium,
# an offline release build of the page, and on that build: the size gate, the palette's
# colour differences, the page's geometry at projector and phone sizes, each lesson's
# point on the graph, every key moment of every lesson (scripts/key-moments.sh),
# every tour step's evidence on screen (scripts/tour-evidence.sh), the page on a
# phone (scripts/phone.sh: the graph top to bottom, and under a thumb), an axe-core
# audit, the offline cache and the classroom server (its Rust tests run with the
# native ones, and a short load run follows them).
# Installs whatever is missing first. CI runs exactly this (.ci/run).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# Each step's line says when it started (minutes:seconds since the start): the
# command has a time budget (docs/performance.md), and this shows where it goes.
log() { printf '\033[1;34m[test %2d:%02d]\033[0m %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
ensure_web_tools
ensure_browser
cd "$ROOT"

log "formatting and lints (rustfmt; clippy natively, and for the page's wasm build)"
cargo fmt --all --check
ensure_browser_scripts; node scripts/hant.cjs --check  # every zh-Hant generated from its current zh
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p checkpoint-lab --target wasm32-unknown-unknown --all-targets -- -D warnings

log "native tests (optimized: the seeded loops run over hundreds of seeds)"
cargo test --profile ci --workspace

log "the classroom server under load: 100 simulated phones on loopback (scripts/classroom-load.sh --short)"
bash scripts/classroom-load.sh --short

log "differential tests: the lab against real Flink $FLINK_VERSION (fails if Java or Flink's jars are missing)"
ensure_flink
"$ROOT/scripts/flink-names.sh" --check  # the source test's fixture still matches Flink's jars
# --nocapture shows what each case compared; the count of cases follows.
DIFF_LOG="$(mktemp)"
cargo test --profile ci -p checkpoint-engine --test flink differential -- --ignored --nocapture 2>&1 \
  | tee "$DIFF_LOG"
# Each case prints "<case>: compared N observable(s)"; probes are the cases named probe-….
COMPARED_RE=': compared [0-9]* observable'
echo "differential: $(grep -c "$COMPARED_RE" "$DIFF_LOG") cases compared with real Flink" \
  "($(grep "$COMPARED_RE" "$DIFF_LOG" | grep -vc '^probe-') lessons and variants," \
  "$(grep "$COMPARED_RE" "$DIFF_LOG" | grep -c '^probe-') probes of single rules)"
rm -f "$DIFF_LOG"

log "browser tests (wasm-bindgen-test in headless Chromium)"
# The runner's default budget for a whole test binary is 20 s; a loaded machine
# (CI shares it) can need more, so allow 5 minutes.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=300 \
  cargo test -p checkpoint-lab --target wasm32-unknown-unknown

log "release build of the page (offline)"
trunk build --release
DIST=dist bash scripts/size.sh

log "palette: CIEDE2000 between every pair of meanings, for every vision"
bash scripts/palette.sh | tail -1

log "geometry of the built page at 1280x720, 1024x768 and 390 px (headless Chromium)"
DIST=dist bash scripts/geometry.sh

log "each lesson's point on the graph: live state and rewinds, duplicates, the unaligned epoch, no overprinted labels"
DIST=dist bash scripts/lesson-on-graph.sh

log "key moments: every lesson's auto-pause moments at projector sizes, zh and en — no overprint, no border through text, no clipped text, every drawn value as lab run --trace --metadata says"
DIST=dist bash scripts/key-moments.sh

log "tours: every step's text, question, answer and the element or panel it points at on screen together (1280x720, 1024x768, zh and en)"
DIST=dist bash scripts/tour-evidence.sh

log "phones (touch, 360x740 and 390x844, zh and en): every lesson's graph top to bottom inside the screen's width, nothing scrolls sideways, stage text >= 12 px, no overprint; 44 px tap targets that never overlap, the tour's sheet with its target in view, the ⋯ menu on screen, a subtask's sheet, merged timeline markers"
DIST=dist bash scripts/phone.sh

log "the interview drill: every question's exercises answered wrong (the reason) then right, by tapping and by typing, at 1280x720, 1024x768 and 390x844 in zh and en (zh-Hant sampled round-robin); its tap targets and width"
DIST=dist bash scripts/drill.sh

log "accessibility (axe-core): first screen, a tour, projector mode, a tour on a phone"
DIST=dist bash scripts/axe.sh

log "offline after the first visit (service worker) and the classroom server, on 127.0.0.1"
DIST=dist bash scripts/offline.sh

log "two windows: the presenter window and the projector's view in step from either (buttons, clicker keys), no answer on the projector, the key-moment audit and the 14 px floor on the projector's view at every step of two tours, a class plan resumed after a reload, exported and imported as a file and a link (measured: 1 minute on the release build, 51–60 s on a loaded 2-core machine)"
DIST=dist bash scripts/presenter.sh

log "a live class: the presenter window, the projector's window and three phones on the classroom server — following, a two-round vote and its reveal, a reload, a detached phone, a phone refused, a server restart"
DIST=dist bash scripts/classroom-live.sh
log "all green"
