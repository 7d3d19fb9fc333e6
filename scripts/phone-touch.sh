#!/usr/bin/env bash
# The page under a thumb (scripts/phone-touch.cjs): the release build in headless
# Chromium with touch emulation at 360×740 and 390×844, zh and en — tap targets,
# the tour's sheet, the ⋯ menu, a subtask's sheet, the timeline's markers.
# Part of scripts/test.sh, after its build.
# Usage: [DIST=<dir>] [CONFIGS=0,2] bash scripts/phone-touch.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/phone-touch.cjs "$BASE_URL"
