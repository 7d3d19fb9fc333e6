#!/usr/bin/env bash
# First render of the release page: median of 15 cold loads (scripts/first-render.cjs).
# Not part of CI (timings are noisy). Usage:
#   [DIST=<dir>] [BASELINE=<an older dist>] [LOADS=15] bash scripts/first-render.sh
# With BASELINE, both builds are served and measured alternately, side by side.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
targets=("this=$BASE_URL")
if [ -n "${BASELINE:-}" ]; then
  BPORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  python3 -m http.server "$BPORT" --bind 127.0.0.1 --directory "$BASELINE" >/dev/null 2>&1 &
  BSERVER=$!
  trap 'kill $SERVER $BSERVER' EXIT
  sleep 1
  targets+=("baseline=http://127.0.0.1:$BPORT")
fi
node scripts/first-render.cjs --loads "${LOADS:-15}" "${targets[@]}"
