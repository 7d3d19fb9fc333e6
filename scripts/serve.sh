#!/usr/bin/env bash
# Serve the page, installing whatever is missing first.
#   bash scripts/serve.sh               http://127.0.0.1:8080 (trunk serve, rebuilds on change)
#   bash scripts/serve.sh --classroom   the release build on this machine's LAN address,
#                                       precompressed (brotli, gzip), with a QR code for phones
# Any other arguments go to `trunk serve` (e.g. --port 9000); after --classroom,
# `--port N` picks the classroom server's port.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
cd "$ROOT"
if [ "${1:-}" = --classroom ]; then
  shift
  ensure_browser_scripts
  trunk build --release
  exec node scripts/classroom-server.cjs dist --lan "$@"
fi
exec trunk serve --release "$@"
