#!/usr/bin/env bash
# The interview drill on the release page (scripts/drill.cjs): every exercise of
# the questions tried answered wrong (its reason) then right, the stage paused at
# the reason, a reload reopening the question, the drill beside a tab, at
# 1280×720, 1024×768 and 390×844: every question in zh and en, in zh-Hant three
# questions at each size and the others once, round-robin; tap targets, width, no text cut.
# Usage: [DIST=<dir>] [SHOTS=<dir>] [DRILL_ALL=1] bash scripts/drill.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
[ -z "${SHOTS:-}" ] || mkdir -p "$SHOTS"
node scripts/drill.cjs "$BASE_URL"
