#!/usr/bin/env bash
# Serve the page, installing whatever is missing first.
#   bash scripts/serve.sh               http://127.0.0.1:8080 (trunk serve, rebuilds on change)
#   bash scripts/serve.sh --classroom   the release build on this machine's LAN address by the
#                                       classroom server (crates/classroom): precompressed, the
#                                       students' link with a QR code, the presenter's link, the
#                                       class followed live and its votes (docs/classroom.md)
# Any other arguments go to `trunk serve` (e.g. --port 9000); after --classroom they go to
# the classroom server: `--host ADDR` and `--port N` (0: a free one) override the LAN
# address and port 8080, `--state FILE` the file that keeps the class across restarts.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
cd "$ROOT"
if [ "${1:-}" = --classroom ]; then
  shift
  trunk build --release
  # The same command after a restart finds the same class: its secret (so the same
  # links), the lecturer's moment and the open vote.
  STATE_DIR="${XDG_STATE_HOME:-$HOME/.local/state}/checkpoint-lab"
  mkdir -p "$STATE_DIR"
  exec bash scripts/classroom-server.sh dist --lan --port 8080 --state "$STATE_DIR/class.json" "$@"
fi
exec trunk serve --release "$@"
