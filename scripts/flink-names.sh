#!/usr/bin/env bash
# Writes tests/fixtures/flink-names/flink-2.3.0.txt, the names the source test
# (src/lessons/sources.rs) checks the page's citations against, from Flink's jars:
# for every Flink class a tour, drill question or glossary term cites, its members;
# every configuration key of Flink's option classes; and each deprecated key with the
# key that replaced it. `--check` compares with the committed file instead.
#
# The Kafka connector's classes (tests/fixtures/flink-names/kafka-connector.txt) are
# not in Flink's jars: `scripts/flink-names.sh --kafka <flink-connector-kafka git dir>`
# lists them from the connector's source (see that file's header).
#
# Needs Java 17 (javac) and FLINK_LIB, the jars' directory (scripts/setup.sh's
# ensure_flink puts them there).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT_DIR="$ROOT/tests/fixtures/flink-names"
FLINK_LIB="${FLINK_LIB:-${CHECKPOINT_LAB_TOOLS:-$HOME/.cache/checkpoint-lab}/flink-2.3.0/pyflink/lib}"

if [ "${1:-}" = "--kafka" ]; then
  repo="${2:?--kafka needs the flink-connector-kafka git directory}"
  commit="$(git --git-dir="$repo" rev-parse --short HEAD)"
  {
    echo "# Classes of the Kafka connector (flink-connector-kafka at $commit), from its"
    echo "# source: scripts/flink-names.sh --kafka <its git dir>. Methods are the names"
    echo "# declared with a parameter list in each class's file."
    python3 - "$repo" <<'PY'
import re, subprocess, sys
repo = sys.argv[1]
git = lambda *a: subprocess.run(["git", "--git-dir", repo, *a], check=True, capture_output=True, text=True).stdout
decl = re.compile(r"^\s+(?:[\w<>\[\],.?]+\s+)+([a-z]\w*)\s*\(", re.M)
lines = set()
for f in git("ls-tree", "-r", "--name-only", "HEAD").split():
    if re.match(r"^flink-connector-kafka/src/main/java/.*\.java$", f):
        name = f.rsplit("/", 1)[1][:-5]
        members = sorted(set(decl.findall(git("show", f"HEAD:{f}"))) - {"if", "for", "while", "switch", "catch", "return", "new", "synchronized"})
        lines.add(" ".join(["class", name, *members]))
print("\n".join(sorted(lines)))
PY
  } > "$OUT_DIR/kafka-connector.txt"
  exit 0
fi

[ -f "$FLINK_LIB/flink-dist-2.3.0.jar" ] || { echo "no Flink 2.3.0 jars in $FLINK_LIB" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
javac -d "$work" "$ROOT/scripts/flink-names/FlinkNames.java"
# The classes the page cites: every "sources" entry that is neither an option, a
# page nor "none", reduced to its simple class name (nested as Outer.Inner).
python3 - "$ROOT" > "$work/cited.txt" <<'PY'
import glob, json, re, sys
root = sys.argv[1]
files = glob.glob(f"{root}/assets/tours/*.json") + [f"{root}/assets/glossary.json", f"{root}/assets/drill/questions.json", f"{root}/assets/i18n/sources.json"]
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("sources", "cited", "scenarios") and isinstance(x, (list, dict)):
                yield from (x if isinstance(x, list) else [s for v in x.values() for s in v])
            else:
                yield from walk(x)
    elif isinstance(v, list):
        for x in v:
            yield from walk(x)
names = set()
for f in files:
    for s in walk(json.load(open(f))):
        if s == "none" or s.startswith(("option:", "doc:")):
            continue
        segs = [x for x in s.split(".") if re.match(r"^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$", x)]
        if segs:
            names.add(".".join(segs))
print("\n".join(sorted(names)))
PY
{
  echo "# Flink 2.3.0's cited classes with their members, every option key, and each"
  echo "# deprecated key with its replacement: written by scripts/flink-names.sh from the jars."
  java -cp "$work:$FLINK_LIB/*" FlinkNames "$FLINK_LIB/flink-dist-2.3.0.jar" < "$work/cited.txt" 2>/dev/null
} > "$work/flink-2.3.0.txt"
if [ "${1:-}" = "--check" ]; then
  diff -u "$OUT_DIR/flink-2.3.0.txt" "$work/flink-2.3.0.txt" \
    || { echo "tests/fixtures/flink-names/flink-2.3.0.txt is stale: run scripts/flink-names.sh" >&2; exit 1; }
else
  mkdir -p "$OUT_DIR"
  cp "$work/flink-2.3.0.txt" "$OUT_DIR/flink-2.3.0.txt"
fi
