#!/usr/bin/env bash
# The classroom server (crates/classroom), built if needed, on a release build.
# Usage: bash scripts/classroom-server.sh DIR [--host ADDR | --lan] [--port N] [--state FILE]
# Prints `presenter: URL` (loopback, the secret in the fragment), `students: URL`
# and a QR code of the students' link; serves until stopped. Built with the test
# profile (ci), so the test command's build of the crate is reused.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
DIR="${1:?usage: classroom-server.sh DIR [--host ADDR | --lan] [--port N] [--state FILE]}"
shift
(cd "$ROOT" && cargo build --quiet --profile ci -p classroom --bin classroom)
exec "${CARGO_TARGET_DIR:-$ROOT/target}/ci/classroom" --dist "$DIR" "$@"
