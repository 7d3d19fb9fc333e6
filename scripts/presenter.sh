#!/usr/bin/env bash
# The presenter window and the projector's view in one headless Chromium
# (scripts/presenter.cjs), on the release build, loopback only. Part of
# scripts/test.sh, after its release build.
# Usage: [DIST=<dir>] [OUT=<screenshots dir>] bash scripts/presenter.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ensure_web_tools
ensure_browser
ensure_browser_scripts
cd "$ROOT"
DIST="${DIST:-dist}"
[ -d "$DIST" ] || trunk build --release
node scripts/presenter.cjs "$DIST" "${OUT:-/tmp/presenter-shots}"
