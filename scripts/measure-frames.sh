#!/usr/bin/env bash
# Build the release page, serve it on 127.0.0.1, play a scenario in headless Chromium
# and print requestAnimationFrame interval percentiles. Not part of CI.
# Usage: [DIST=<dir>] bash scripts/measure-frames.sh [scenario] [speed option] [seconds]
set -euo pipefail
SCENARIO="${1:-unaligned-backpressure}"
SPEED="${2:-4}"
SECONDS_TO_RUN="${3:-8}"
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/measure-frames.cjs "$BASE_URL/?lang=en&scenario=$SCENARIO" "$SECONDS_TO_RUN" "$SPEED"
