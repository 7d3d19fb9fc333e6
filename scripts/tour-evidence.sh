#!/usr/bin/env bash
# Every guided tour's step keeps its evidence on screen (scripts/tour-evidence.cjs):
# the release build in headless Chromium at 1280×720 and 1024×768, zh and en.
# Part of scripts/test.sh, after its build.
# Usage: [DIST=<dir>] [LESSONS=a,b] bash scripts/tour-evidence.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/tour-evidence.cjs "$BASE_URL"
