#!/usr/bin/env bash
# The page on a classroom's hardware, emulated by Chromium's own CPU and network
# throttling (scripts/classroom-hardware.cjs says what is measured): one table,
# and JSON in $OUT. Not part of CI (timings are noisy). Usage:
#   [DIST=<dir>] [BASELINE=<an older dist>] [QUICK=1] [LOADS=3] [OUT=<json>] \
#     bash scripts/classroom-hardware.sh
# Each build is served twice, by scripts/classroom-server.sh (brotli/gzip) and by
# python's static server (uncompressed). About 9 minutes with a baseline; QUICK=1 about 4.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SNAP="$(mktemp -d /tmp/classroom-hardware.XXXXXX)"

source "$ROOT/scripts/snapshot.sh"
snapshot "${DIST:-dist}" this
[ -z "${BASELINE:-}" ] || snapshot "$BASELINE" baseline

DIST="$SNAP/this"
source "$ROOT/scripts/serve-for-measuring.sh"
trap 'kill "${SERVERS[@]}" 2>/dev/null; rm -rf "$SNAP"' EXIT

# serve_classroom VAR DIR: the classroom server on a free port; VAR gets its URL.
serve_classroom() {
  local out="$SNAP/$1.log" url=""
  bash "$ROOT/scripts/classroom-server.sh" "$2" --host 127.0.0.1 --port 0 >"$out" 2>&1 &
  SERVERS+=($!)
  # It precompresses the whole build first (a few seconds at brotli's best quality).
  for _ in $(seq 120); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$out" | head -n 1)" && break
    kill -0 "$!" 2>/dev/null || break
    sleep 0.5
  done
  [ -n "$url" ] || { echo "the classroom server for $2 did not start:" >&2; cat "$out" >&2; exit 1; }
  printf -v "$1" '%s' "$url"
}

serve_classroom THIS_CLASSROOM "$SNAP/this"
targets=("this=$BASE_URL,$THIS_CLASSROOM")
if [ -n "${BASELINE:-}" ]; then
  serve_build BASELINE_URL "$SNAP/baseline"
  serve_classroom BASELINE_CLASSROOM "$SNAP/baseline"
  targets+=("baseline=$BASELINE_URL,$BASELINE_CLASSROOM")
fi
node "$ROOT/scripts/classroom-hardware.cjs" "${targets[@]}"
