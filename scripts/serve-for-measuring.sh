#!/usr/bin/env bash
# Sourced by the measuring scripts (measure-frames.sh, measure-seek.sh): installs
# playwright-core and axe-core, builds the release page unless DIST=<dir> names another build
# (e.g. a copy of an older dist/, to compare back to back), serves it on a free
# port of 127.0.0.1 and sets BASE_URL. The server stops when the script exits.
# serve_build serves another build the same way (e.g. a baseline beside it).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
cd "$ROOT"
ensure_browser_scripts
DIST="${DIST:-dist}"
[ -d "$DIST" ] || trunk build --release
# serve_build VAR DIR: serves DIR on a free port of 127.0.0.1 (a fixed one may already
# serve someone else's build) and sets VAR to its URL; the servers stop when the
# script exits. (Not in $(…): the server must be this shell's child to be stopped.)
SERVERS=()
trap 'kill "${SERVERS[@]}" 2>/dev/null' EXIT
serve_build() {
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$2" >/dev/null 2>&1 &
  SERVERS+=($!)
  sleep 1
  kill -0 "$!" || { echo "the page server for $2 did not start" >&2; exit 1; }
  printf -v "$1" 'http://127.0.0.1:%s' "$port"
}
serve_build BASE_URL "$DIST"
