#!/usr/bin/env bash
# The key-moment audit (scripts/key-moments.cjs): every lesson's key moments on the
# built page at projector sizes, zh and en, checked for overprinted text, borders
# through text, clipped text and values that differ from `lab run --trace --metadata`.
# Usage: [DIST=<dir>] [MOMENTS=n] [LESSONS=a,b] [CONFIGS=0,1] [SHOTS=<dir>] bash scripts/key-moments.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
# The engine's own word on each lesson, from the native runner (not the page).
cargo build --profile ci -q -p checkpoint-engine --bin lab
LAB="$ROOT/target/ci/lab" node scripts/key-moments.cjs "$BASE_URL"
