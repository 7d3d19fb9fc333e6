#!/usr/bin/env bash
# First render of the release page: median of 15 cold loads (scripts/first-render.cjs).
# Not part of CI (timings are noisy). Usage:
#   [DIST=<dir>] [BASELINE=<an older dist>] [LOADS=15] bash scripts/first-render.sh
# With BASELINE, both builds are served and measured alternately, side by side.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
targets=("this=$BASE_URL")
if [ -n "${BASELINE:-}" ]; then
  serve_build BASELINE_URL "$BASELINE"
  targets+=("baseline=$BASELINE_URL")
fi
node scripts/first-render.cjs --loads "${LOADS:-15}" "${targets[@]}"
