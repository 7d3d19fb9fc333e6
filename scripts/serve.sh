#!/usr/bin/env bash
# Serve the page on http://127.0.0.1:8080, installing whatever is missing first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
cd "$ROOT"
exec trunk serve --release "$@"
