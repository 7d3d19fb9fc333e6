#!/usr/bin/env bash
# Idempotent installer for everything the page and its tests need on a fresh
# machine of this kind. Sourced by scripts/serve.sh and scripts/test.sh.
# Only registry packages by name: crates.io, npm, Debian. Nothing prebuilt from
# elsewhere (the machine has no other network).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"
BINARYEN_VERSION="132.0.0"
TOOLS_DIR="${CHECKPOINT_LAB_TOOLS:-$HOME/.cache/checkpoint-lab}"

export PATH="$HOME/.cargo/bin:$TOOLS_DIR/npm/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

# Times one install step and says how long it took (a fresh machine's setup is
# most of a first test run, so the figure is worth seeing).
timed() {
  local what="$1" start=$SECONDS
  shift
  "$@"
  log "$what: $((SECONDS - start)) s"
}

# The two tools from crates.io are build helpers, not the product: their own
# release profiles ask for fat LTO and one codegen unit, which is most of their
# compile time on two cores and buys nothing measurable when they run. Config
# beats the manifest's profile, so these settings apply to `cargo install` alone.
# TOOL_OPT_LEVEL: trunk only orchestrates (cargo, wasm-bindgen, wasm-opt do the
# work), so it is built unoptimized — 202 s instead of 420 s here, and the page it
# builds is byte for byte the same; wasm-bindgen-cli rewrites the page's wasm on
# every build and keeps opt-level 2 (opt-level 1 saved 5 s of its 163).
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=false \
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_OPT_LEVEL="${TOOL_OPT_LEVEL:-2}" \
  CARGO_PROFILE_RELEASE_DEBUG=false \
  CARGO_PROFILE_RELEASE_STRIP=true \
    cargo install "$@"
}

ensure_wasm_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

ensure_trunk() {
  if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
    log "installing trunk $TRUNK_VERSION from crates.io (without its fat LTO)"
    TOOL_OPT_LEVEL=0 timed "trunk installed" tool_install trunk --version "$TRUNK_VERSION" --locked
  fi
}

# wasm-bindgen-cli must match the wasm-bindgen in Cargo.lock exactly, or trunk
# would try to download one (and fail offline).
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

ensure_wasm_bindgen_cli() {
  local want
  want="$(wasm_bindgen_version)"
  if ! wasm-bindgen --version 2>/dev/null | grep -q " $want\$" \
     || ! command -v wasm-bindgen-test-runner >/dev/null; then
    log "installing wasm-bindgen-cli $want from crates.io (without its fat LTO)"
    # --locked fails here: its lockfile pins a crate version the registry lacks.
    # Without its default features it has no TLS (rustls, ring): it only downloads
    # a browser driver, and CHROMEDRIVER names the installed one — 12 % less to compile.
    timed "wasm-bindgen-cli installed" \
      tool_install wasm-bindgen-cli --version "$want" --force --no-default-features
  fi
}

ensure_wasm_opt() {
  if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
    log "installing binaryen@$BINARYEN_VERSION (wasm-opt) from npm"
    mkdir -p "$TOOLS_DIR/npm"
    npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/npm" "binaryen@$BINARYEN_VERSION"
  fi
}

APT_UPDATED=0
apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    if [ "$APT_UPDATED" = 0 ]; then apt-get update -qq; APT_UPDATED=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_browser() {
  apt_install chromium chromium-driver fonts-noto-cjk
}

# Real Apache Flink for `scripts/flink.sh` and the differential tests: Java 17 from
# Debian, Flink's jars from PyPI (apache-flink-libraries is nothing but the jars of
# the distribution, ~330 MB, no Python dependencies).
FLINK_VERSION="2.3.0"
FLINK_DIR="$TOOLS_DIR/flink-$FLINK_VERSION"
export FLINK_LIB="$FLINK_DIR/pyflink/lib"

ensure_flink() {
  command -v javac >/dev/null || apt_install openjdk-17-jdk-headless
  if [ ! -f "$FLINK_LIB/flink-dist-$FLINK_VERSION.jar" ]; then
    log "installing Flink $FLINK_VERSION's jars from PyPI (apache-flink-libraries, ~330 MB)"
    python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
    rm -rf "$FLINK_DIR.partial"
    python3 -m pip install --quiet --disable-pip-version-check --no-deps \
      --target "$FLINK_DIR.partial" "apache-flink-libraries==$FLINK_VERSION"
    rm -rf "$FLINK_DIR"
    mv "$FLINK_DIR.partial" "$FLINK_DIR"
  fi
}

# The page's end-to-end scripts (geometry, screenshots, axe, measuring) drive the
# Debian chromium through playwright-core (never `playwright install`: it would
# download a browser) and audit it with axe-core; qrcode-terminal (no dependencies)
# prints the classroom server's QR code; opencc-js (OpenCC's tables, no
# dependencies) is scripts/hant.cjs's Simplified → Traditional conversion.
# NODE_PATH lets the scripts require them.
ensure_browser_scripts() {
  if [ ! -d "$TOOLS_DIR/pw/node_modules/playwright-core" ] \
     || [ ! -d "$TOOLS_DIR/pw/node_modules/axe-core" ] \
     || [ ! -d "$TOOLS_DIR/pw/node_modules/qrcode-terminal" ] \
     || [ ! -d "$TOOLS_DIR/pw/node_modules/opencc-js" ]; then
    log "installing playwright-core, axe-core, qrcode-terminal and opencc-js from npm"
    mkdir -p "$TOOLS_DIR/pw"
    npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/pw" \
      playwright-core@1.65.1 axe-core@4.14.1 qrcode-terminal@0.12.0 opencc-js@1.4.2
  fi
  export NODE_PATH="$TOOLS_DIR/pw/node_modules"
}

# Runs one install in the background with its output in a log file of its own, so
# that two can run side by side without interleaving their compiler lines.
in_background() {
  local log_file="$TOOLS_DIR/logs/$1.log"
  shift
  mkdir -p "$TOOLS_DIR/logs"
  ( "$@" ) >"$log_file" 2>&1 &
  BACKGROUND_PID=$!
}

# Waits for an install started by in_background; on failure shows the end of its log.
await_install() {
  local what="$1" pid="$2" log_file="$TOOLS_DIR/logs/$1.log"
  if wait "$pid"; then
    grep -F '[setup]' "$log_file" || true
  else
    log "$what failed; the end of $log_file:"
    tail -n 30 "$log_file" >&2
    return 1
  fi
}

# trunk and wasm-bindgen-cli compile side by side: each leaves a core idle for part
# of its build (a long chain of crates that wait on one another, the final link), so
# on two cores the pair finishes sooner together than one after the other.
ensure_web_tools() {
  ensure_wasm_target
  local trunk_pid bindgen_pid status=0
  in_background trunk ensure_trunk
  trunk_pid=$BACKGROUND_PID
  in_background wasm-bindgen-cli ensure_wasm_bindgen_cli
  bindgen_pid=$BACKGROUND_PID
  await_install trunk "$trunk_pid" || status=1
  await_install wasm-bindgen-cli "$bindgen_pid" || status=1
  [ "$status" = 0 ] || return 1
  ensure_wasm_opt
}
