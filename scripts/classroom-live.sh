#!/usr/bin/env bash
# A live class in one headless Chromium (scripts/classroom-live.cjs): the
# presenter window, the projector's window and three phones on the classroom
# server, on the release build, loopback only. Part of scripts/test.sh, after
# its release build.
# Usage: [DIST=<dir>] [OUT=<screenshots dir>] bash scripts/classroom-live.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
ensure_browser_scripts
cd "$ROOT"
DIST="${DIST:-dist}"
[ -d "$DIST" ] || trunk build --release
node scripts/classroom-live.cjs "$DIST" "${OUT:-/tmp/classroom-live-shots}"
