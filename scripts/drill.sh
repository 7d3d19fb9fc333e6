#!/usr/bin/env bash
# The interview drill on the release page (scripts/drill.cjs): answered by
# tapping and by typing at 1280×720 and 390×844, zh and en; tap targets and width.
# Usage: [DIST=<dir>] [SHOTS=<dir>] bash scripts/drill.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
[ -z "${SHOTS:-}" ] || mkdir -p "$SHOTS"
node scripts/drill.cjs "$BASE_URL"
