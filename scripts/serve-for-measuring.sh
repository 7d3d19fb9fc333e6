#!/usr/bin/env bash
# Sourced by the measuring scripts (measure-frames.sh, measure-seek.sh): installs
# playwright-core and axe-core, builds the release page unless DIST=<dir> names another build
# (e.g. a copy of an older dist/, to compare back to back), serves it on a free
# port of 127.0.0.1 and sets BASE_URL. The server stops when the script exits.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
cd "$ROOT"
ensure_browser_scripts
DIST="${DIST:-dist}"
[ -d "$DIST" ] || trunk build --release
# A free port: a fixed one may already serve someone else's build.
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$DIST" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 1
kill -0 "$SERVER" || { echo "the page server did not start" >&2; exit 1; }
BASE_URL="http://127.0.0.1:$PORT"
