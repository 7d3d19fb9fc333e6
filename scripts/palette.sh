#!/usr/bin/env bash
# The palette's distinct meanings: CIEDE2000 between every pair of
# epoch and status colours of src/scene/palette.rs, normally and under Chromium's
# emulated deuteranopia, protanopia and tritanopia. Fails below ΔE00 15.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo run --quiet --profile ci -p checkpoint-lab --bin palette
