#!/usr/bin/env bash
# Run a lesson on real Apache Flink 2.3, on a local MiniCluster in one JVM.
#
#   bash scripts/flink.sh SCENARIO [options]   a built-in name or a scenario file, as `lab run` takes:
#                                              exports it (`lab export flink`), compiles, runs, prints the
#                                              real run's summary (one JSON line, `lab run`'s shape), then
#                                              compares it side by side with `lab run` of the same scenario
#   bash scripts/flink.sh Job.java [options]   compiles and runs a downloaded export
#
# Options:
#   --ui            keep the MiniCluster and Flink's web UI up on http://127.0.0.1:8081 until Ctrl-C
#   --port N        the web UI's port with --ui (default 8081)
#   --stats FILE    save the real checkpoint statistics from Flink's REST API (/jobs/:id/checkpoints,
#                   /jobs/:id/checkpoints/config, per-checkpoint details with subtask timings), polled
#                   while the job runs
#   --lang zh|en    the language of the exported Java's comments (default en)
#   --time-scale X  wall-clock ms per lab ms (default 1)
#
# Installs what is missing first (Java 17 from Debian, Flink's jars from PyPI; see setup.sh).
# Work files (the Java, classes, checkpoints, the sinks' topics, Flink's log) go to target/flink/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

usage() { sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

TARGET="" UI=0 PORT=8081 STATS="" LANG_OPT=en SCALE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --ui) UI=1 ;;
    --port) PORT="${2:?--port needs a number}"; shift ;;
    --stats) STATS="${2:?--stats needs a file}"; shift ;;
    --lang) LANG_OPT="${2:?--lang needs zh or en}"; shift ;;
    --time-scale) SCALE="${2:?--time-scale needs a number}"; shift ;;
    -h|--help) usage ;;
    -*) echo "flink.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$TARGET" ] || { echo "flink.sh: one scenario or Java file (got a second: $1)" >&2; exit 2; }
       TARGET="$1" ;;
  esac
  shift
done
[ -n "$TARGET" ] || usage
[ -z "$STATS" ] || STATS="$(cd "$(dirname "$STATS")" && pwd)/$(basename "$STATS")"

ensure_flink
cd "$ROOT"
NAME="$(basename "$TARGET" .json)"
NAME="${NAME%.java}"
WORK="$ROOT/target/flink/$NAME"
rm -rf "$WORK"
mkdir -p "$WORK/src" "$WORK/classes"

SCENARIO=""
if [[ "$TARGET" == *.java ]]; then
  [ -f "$TARGET" ] || { echo "flink.sh: no such file: $TARGET" >&2; exit 2; }
  cp "$TARGET" "$WORK/src/"
  CLASS="$(basename "$TARGET" .java)"
else
  SCENARIO="$TARGET"
  log "exporting $SCENARIO (lab export flink)"
  cargo build --release --quiet --bin lab
  JAVA_FILE="$(target/release/lab export flink "$SCENARIO" -o "$WORK/src" --lang "$LANG_OPT" --time-scale "$SCALE")"
  CLASS="$(basename "$JAVA_FILE" .java)"
fi

log "compiling $CLASS.java against Flink $FLINK_VERSION"
javac -nowarn -encoding UTF-8 -cp "$FLINK_LIB/*" -d "$WORK/classes" "$WORK/src/$CLASS.java" 2>&1 \
  | { grep -v '^Note: ' || true; } >&2
[ -f "$WORK/classes/$CLASS.class" ] || { echo "flink.sh: $CLASS.java did not compile" >&2; exit 1; }

cat > "$WORK/log4j2.properties" <<EOF
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = File
appender.file.type = File
appender.file.name = File
appender.file.fileName = $WORK/flink.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-40c{1} %m%n
EOF

JAVA_ARGS=(--dir "$WORK/run")
[ "$UI" = 1 ] && JAVA_ARGS+=(--ui --port "$PORT")
[ -n "$STATS" ] && JAVA_ARGS+=(--stats "$STATS")
log "running on a local MiniCluster (Flink's log: $WORK/flink.log)"
: > "$WORK/summary.json"
java -Dlog4j2.configurationFile="file:$WORK/log4j2.properties" -cp "$FLINK_LIB/*:$WORK/classes" \
  "$CLASS" "${JAVA_ARGS[@]}" > "$WORK/summary.json" &
JAVA_PID=$!
trap 'kill "$JAVA_PID" 2>/dev/null || true' INT TERM EXIT
# The summary is one line; with --ui the JVM stays up after printing it.
while kill -0 "$JAVA_PID" 2>/dev/null && ! grep -q . "$WORK/summary.json"; do sleep 0.2; done
if ! grep -q . "$WORK/summary.json"; then
  wait "$JAVA_PID" || true
  echo "flink.sh: the job printed no summary; see $WORK/flink.log" >&2
  exit 1
fi
sleep 0.2
[ -n "$STATS" ] && log "checkpoint statistics saved to $STATS"
cat "$WORK/summary.json"

if [ -n "$SCENARIO" ]; then
  if ! target/release/lab run "$SCENARIO" > "$WORK/lab.json" 2> "$WORK/lab.err"; then
    # The lab refuses the scenario (e.g. a restore it cannot map): compare that.
    python3 -c 'import json,sys; print(json.dumps({"job_status": "refused", "failure_reason": open(sys.argv[1]).read().strip()}))' \
      "$WORK/lab.err" > "$WORK/lab.json"
  fi
  python3 - "$WORK/lab.json" "$WORK/summary.json" <<'PY'
import json, sys
from collections import Counter
lab = json.loads(open(sys.argv[1]).read().splitlines()[-1])
real = json.loads(open(sys.argv[2]).read().splitlines()[-1])
def cps(s):
    c = Counter(x["status"] for x in s.get("checkpoints", []))
    return ", ".join(f"{n} {k}" for k, n in sorted(c.items())) or "none"
def fails(s):
    f = s.get("failures", [])
    return f"{len(f)}" + (f" ({', '.join(str(x.get('task')) for x in f)})" if f else "")
rows = [("", "lab", "real Flink " + real.get("flink", {}).get("version", "")),
        ("job_status", lab.get("job_status"), real.get("job_status")),
        ("checkpoints", cps(lab), cps(real)),
        ("failures", fails(lab), fails(real))]
verdicts = []
if lab.get("job_status") == "refused":
    real_refused = real.get("job_status") == "refused" or str(real.get("failure_reason", "")).startswith("Failed to rollback")
    verdicts.append("the lab refuses this job; real Flink " + ("refuses it too" if real_refused else "runs it"))
    real["sinks"] = {}
for uid in sorted(set(lab.get("sinks", {})) | set(real.get("sinks", {}))):
    a = lab.get("sinks", {}).get(uid, {}).get("committed", [])
    b = real.get("sinks", {}).get(uid, {}).get("committed", [])
    rows.append((f"sinks.{uid}.committed", f"{len(a)} records", f"{len(b)} records"))
    ca = Counter((r["key"], r["value"]) for r in a)
    cb = Counter((r["key"], r["value"]) for r in b)
    if ca == cb:
        verdicts.append(f"sinks.{uid}: the committed outputs are equal ({len(a)} records, as a multiset)")
    else:
        only_lab, only_real = ca - cb, cb - ca
        verdicts.append(f"sinks.{uid}: the committed outputs differ: {sum(only_lab.values())} only in the lab "
                        f"{sorted(only_lab.items())[:5]}, {sum(only_real.values())} only in Flink {sorted(only_real.items())[:5]}")
        # Running sums over several input subtasks depend on the order records meet;
        # the last value per key does not, once the job has finished.
        la = {r["key"]: r["value"] for r in a}
        lb = {r["key"]: r["value"] for r in b}
        verdicts.append(f"sinks.{uid}: the last committed value per key is "
                        + ("equal" if la == lb else f"different (lab {la}, Flink {lb})")
                        + " (intermediate values depend on the order records from several subtasks arrive)")
w = max(len(r[0]) for r in rows) + 2
v = max(len(str(r[1])) for r in rows) + 2
print()
for r in rows:
    print(f"{r[0]:<{w}}{str(r[1]):<{v}}{r[2]}")
for x in verdicts:
    print(x)
if lab.get("failure_reason") or real.get("failure_reason"):
    print(f"failure_reason  lab:   {lab.get('failure_reason')}\n                flink: {real.get('failure_reason')}")
PY
fi

if [ "$UI" = 1 ]; then
  log "Flink's web UI: http://127.0.0.1:$PORT (the Checkpoints tab of the job) — Ctrl-C to stop"
  wait "$JAVA_PID" || true
fi
