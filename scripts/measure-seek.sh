#!/usr/bin/env bash
# Build the release page, serve it on 127.0.0.1 and time seeks on the scrubber of a
# long run in headless Chromium (scripts/measure-seek.cjs). Not part of CI.
# Usage: [DIST=<dir>] bash scripts/measure-seek.sh [scenario] [seeks] [target ms]
set -euo pipefail
SCENARIO="${1:-busy-network}"
SEEKS="${2:-30}"
TARGET_MS="${3:-60000}"
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/measure-seek.cjs "$BASE_URL/?lang=en&scenario=$SCENARIO" "$SEEKS" "$TARGET_MS"
