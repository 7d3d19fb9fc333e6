#!/usr/bin/env bash
# Screenshots of the release page for a projector check (scripts/screenshots.cjs).
# Usage: [DIST=<dir>] bash scripts/screenshots.sh [out-dir]   (default /tmp/checkpoint-lab-shots)
set -euo pipefail
OUT="${1:-/tmp/checkpoint-lab-shots}"
source "$(dirname "${BASH_SOURCE[0]}")/serve-for-measuring.sh"
mkdir -p "$OUT"
node scripts/screenshots.cjs "$BASE_URL" "$OUT"
ls "$OUT"
