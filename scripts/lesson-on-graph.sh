#!/usr/bin/env bash
# Each lesson's point on the graph, on the built page (scripts/lesson-on-graph.cjs):
# live state and the rewind in odd-even-sum, duplicates badged and counted apart,
# the plain sink's heading, the overtaken record's epoch, no overlapping labels.
# Usage: [DIST=<dir>] [SHOTS=<dir>] bash scripts/lesson-on-graph.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
[ -n "${SHOTS:-}" ] && mkdir -p "$SHOTS"
node scripts/lesson-on-graph.cjs "$BASE_URL"
