#!/usr/bin/env bash
# The page on a phone (touch emulation at 360×740 and 390×844, zh and en): the
# job graph top to bottom inside the screen's width with readable text
# (scripts/phone-graph.cjs), then the page under a thumb — tap targets, the
# tour's sheet, the ⋯ menu, a subtask's sheet, the timeline's markers
# (scripts/phone-touch.cjs). Part of scripts/test.sh, after its build.
# Usage: [DIST=<dir>] [LESSONS=a,b] [CONFIGS=0,2] bash scripts/phone.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/phone-graph.cjs "$BASE_URL"
node scripts/phone-touch.cjs "$BASE_URL"
