#!/usr/bin/env bash
# The service worker and the classroom server (scripts/offline.cjs), loopback only.
# Part of scripts/test.sh, after its release build. Usage: [DIST=<dir>] bash scripts/offline.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
ensure_browser_scripts
cd "$ROOT"
DIST="${DIST:-dist}"
[ -d "$DIST" ] || trunk build --release
node scripts/offline.cjs "$DIST"
