#!/usr/bin/env bash
# Sourced by join-storm.sh and classroom-hardware.sh. Not part of
# serve-for-measuring.sh: sourcing that builds and serves a page at once, which
# join-storm.sh does not want, and classroom-hardware.sh must copy its build
# before it sources that (the copy is what it serves). Expects ROOT (the
# repository) and SNAP (a scratch directory the caller removes).
#
# snapshot DIR NAME: copies the build in DIR to "$SNAP/NAME". The builds are
# measured from copies: dist/ may be rebuilt during the run, and the classroom
# server writes its .br/.gz files beside the files it serves.
snapshot() {
  local dir
  dir="$(cd "$ROOT" && realpath "$1")"
  [ -f "$dir/index.html" ] || { echo "no build in $dir (trunk build --release, or DIST=<dir>)" >&2; exit 2; }
  cp -r "$dir" "$SNAP/$2"
}
