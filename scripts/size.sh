#!/usr/bin/env bash
# The page's download (issue 15): raw and gzip -9 size of every file of a release
# build, the wasm and the first render's files against their budgets, and — with
# --breakdown — where the wasm's bytes are, by crate and module (twiggy over a
# build that keeps function names; `cargo install twiggy` first).
#   [DIST=<dir>] bash scripts/size.sh            sizes and the gate (part of scripts/test.sh)
#   bash scripts/size.sh --breakdown             + the breakdown (builds the page's wasm again)
#
# The issue's targets are 350 KiB gzip for the wasm and 400 KiB for everything the
# first lesson fetches. They are not reached (see README, "Download size"): the
# gate holds the line where the page is now, so the download can only shrink.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"
DIST="${DIST:-dist}"
TARGET_WASM_KIB=350
TARGET_FIRST_KIB=400
# The gate: the wasm's gzip -9 size with the lesson data fetched on demand (749.4 KiB)
# plus ~1.5 % headroom (it was 800 with the data compiled in, 780.5 KiB).
# Lower it whenever the page shrinks.
CEILING_WASM_KIB=${CEILING_WASM_KIB:-760}
[ -d "$DIST" ] || { ensure_web_tools; trunk build --release; }

python3 - "$DIST" "$TARGET_WASM_KIB" "$TARGET_FIRST_KIB" "$CEILING_WASM_KIB" <<'PY'
import gzip, os, sys
dist, target_wasm, target_first, ceiling = sys.argv[1], *map(int, sys.argv[2:])
rows = []
for root, _, files in os.walk(dist):
    for f in sorted(files):
        if f.endswith(('.gz', '.br')) or f.startswith('.'):
            continue
        p = os.path.join(root, f)
        data = open(p, 'rb').read()
        rows.append((os.path.relpath(p, dist), len(data), len(gzip.compress(data, 9, mtime=0))))
kib = lambda n: f"{n / 1024:7.1f} KiB"
print(f"{'file':52} {'raw':>11} {'gzip -9':>11}")
for name, raw, gz in rows:
    print(f"{name:52} {kib(raw)} {kib(gz)}")
wasm = sum(gz for n, _, gz in rows if n.endswith('.wasm'))
# What the first lesson needs: the index, its script, wasm, stylesheet and icon
# (not the service worker, fetched after the page is drawn).
first = sum(gz for n, _, gz in rows if n != 'sw.js' and '/' not in n)
print(f"wasm {kib(wasm)} gzip (target {target_wasm} KiB, gate {ceiling} KiB); "
      f"first render fetches {kib(first)} gzip (target {target_first} KiB)")
if wasm > ceiling * 1024:
    sys.exit(f"size: the page's wasm is {wasm / 1024:.1f} KiB gzip, over the gate of {ceiling} KiB — "
             "find what grew (bash scripts/size.sh --breakdown)")
PY

if [ "${1:-}" = --breakdown ]; then
  command -v twiggy >/dev/null || { echo "size: --breakdown needs twiggy (cargo install twiggy)" >&2; exit 2; }
  ensure_web_tools
  # The same profile trunk uses, before wasm-bindgen and wasm-opt strip the names.
  cargo build --profile web --target wasm32-unknown-unknown -p checkpoint-lab --bin checkpoint-lab
  twiggy top -n 1000000 -f csv target/wasm32-unknown-unknown/web/checkpoint-lab.wasm | python3 -c '
import csv, re, sys, collections
by = collections.Counter()
for r in csv.DictReader(sys.stdin):
    name, size = r["Name"], int(r["ShallowSize"])
    if "section" in name or "data segment" in name:
        by[name[:48]] += size
        continue
    # The first path in a symbol names the crate whose code it is (generic
    # instantiations land in the crate of the generic: alloc, core, serde).
    m = re.search(r"([a-z_][a-z0-9_]*)::", name.lstrip("<&*( "))
    crate = m.group(1) if m else "(unnamed)"
    if crate in ("checkpoint_lab", "engine"):
        mod = re.search(crate + r"::([a-z_0-9]+)", name)
        crate += "::" + (mod.group(1) if mod else "?")
    by[crate] += size
total = sum(by.values())
print(f"where the wasm is, before wasm-opt (shallow bytes; names and bindgen sections are stripped later):")
for k, v in by.most_common(40):
    print(f"  {v:9d} {100 * v / total:5.1f} %  {k}")'
fi
