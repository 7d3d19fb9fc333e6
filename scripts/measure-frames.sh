#!/usr/bin/env bash
# Build the release page, serve it on 127.0.0.1, play a scenario in headless Chromium
# and print requestAnimationFrame interval percentiles. Not part of CI.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
cd "$ROOT"
if [ ! -d "$TOOLS_DIR/pw/node_modules/playwright-core" ]; then
  mkdir -p "$TOOLS_DIR/pw"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/pw" playwright-core@1
fi
SCENARIO="${1:-unaligned-backpressure}"
SPEED="${2:-4}"
SECONDS_TO_RUN="${3:-8}"
# DIST=<dir> measures another build (e.g. a copy of an older dist/, back to back).
DIST="${DIST:-dist}"
[ -d "$DIST" ] || trunk build --release
# A free port: a fixed one may already serve someone else's build.
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$DIST" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 1
kill -0 "$SERVER" || { echo "the page server did not start" >&2; exit 1; }
NODE_PATH="$TOOLS_DIR/pw/node_modules" node scripts/measure-frames.cjs \
  "http://127.0.0.1:$PORT/?lang=en&scenario=$SCENARIO" "$SECONDS_TO_RUN" "$SPEED"
