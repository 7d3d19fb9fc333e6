#!/usr/bin/env bash
# axe-core on the release page (scripts/axe.cjs): 0 serious or critical
# violations on the first screen, with a tour open, and in projector mode.
# Usage: [DIST=<dir>] bash scripts/axe.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
node scripts/axe.cjs "$BASE_URL"
