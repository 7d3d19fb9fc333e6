#!/usr/bin/env bash
# The page's geometry at projector and phone sizes (scripts/geometry.cjs): the
# release build in headless Chromium. Part of scripts/test.sh, after its build.
# Usage: [DIST=<dir>] bash scripts/geometry.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/geometry.cjs "$BASE_URL"
