#!/usr/bin/env bash
# Forty phones join at once: simulated phones fetch the page from the classroom
# server through one shared, throttled link on loopback, and the table says when
# each could have become interactive (scripts/join-storm.cjs says how; the
# figures go to docs/performance.md). Not part of CI (timings are noisy). Usage:
#   [DIST=<dir>] [BASELINE=<an older dist>] [OUT=<json>] bash scripts/join-storm.sh [--short] [options]
#     --short   40 phones, one storm, one calibration load: under a minute
#   options: --phones 40,100 --link-mbit 20 --rtt-ms 40 --phone-mbit 2 --spread-ms 0 --share fair|order
#            --real 3 --repeats 2 --loads 3 --no-prefetch --target-s 8
# Fails only on real errors (a phone missing a file, a wrong byte count), not on
# the 8 s target.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
ensure_browser
ensure_browser_scripts
SNAP="$(mktemp -d /tmp/join-storm.XXXXXX)"
trap 'rm -rf "$SNAP"' EXIT

source "$ROOT/scripts/snapshot.sh"
snapshot "${DIST:-dist}" this
builds=("this=$SNAP/this")
if [ -n "${BASELINE:-}" ]; then
  snapshot "$BASELINE" baseline
  builds+=("baseline=$SNAP/baseline")
fi
# Built here, so that the script's figure for the server's start is only its start.
(cd "$ROOT" && cargo build --quiet --profile ci -p classroom --bin classroom)
# A hundred phones with six connections each, through the proxy: ~2,400 descriptors.
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"
node "$ROOT/scripts/join-storm.cjs" "${builds[@]}" "$@"
