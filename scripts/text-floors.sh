#!/usr/bin/env bash
# Text sizes on the built page as the back row sees them (scripts/text-floors.cjs):
# every lesson, the twin view, its chart, a lesson pair and projector mode at
# 1280×720 against 14 px (18 px in A⁺). A measurement, not yet part of the test
# command: it prints every kind of text below its floor.
# Usage: [DIST=<dir>] [FLOORS_LANGS=zh,en] [FLOORS_LESSONS=a,b] bash scripts/text-floors.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/text-floors.cjs "$BASE_URL"
