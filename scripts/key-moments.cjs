// The key-moment audit: what a class sees at every moment the page stops on.
//
// For every built-in lesson, at 1280×720 (en, zh), 1024×768 (zh, en), 1920×1080
// (en) and in projector mode (A⁺, 1280×720 zh), it steps through the lesson's key
// moments with PageDown (the auto-pause moments: a barrier blocks, a snapshot, a
// completion, a crash, a restore, a commit) and, at each, reads what the browser
// rendered — the client rects of the stage's SVG and HTML text, not the page's
// own layout — and fails on
//   - overprint: two texts whose glyphs overlap;
//   - a border through text: a drawn box's edge (operator, subtask, chip, badge,
//     store) running through a text's glyphs;
//   - clipping: a text outside the stage, or an HTML text cut short by its box;
//   - a false value: a value on the stage that differs from the engine's run of
//     the same scenario and seed, read independently from `lab run NAME --trace
//     --metadata`: a snapshot mark `✓ chk-n` beside values chk-n did not store, a
//     chip travelling to or from chk-n with values it does not hold, a sink's
//     transaction badge or `open Tn` / `pre-committed Tn` whose transaction is not
//     in that state at that moment;
//   - canvas labels (barrier tags, "+N", brace labels) overlapping each other or a
//     lane or record, as the placement pass reports them, and over any SVG text as
//     rendered: the boxes the page exposes for them are confirmed by a pixel probe
//     of the canvas inside each box;
//   - canvas marks overlapping: a record on a record, a barrier's bar on a
//     record, on one channel or across two (the page's count of pairs over every
//     token, and the first 24 tokens' boxes measured here and probed for paint);
//   - the scrubber's markers (✓n, ✕n, ⚡) covering one another;
//   - a declared point skipped: each point of the lesson's `points` expected in
//     its mode (found in the engine's trace by the rules of
//     docs/scenario-format.md, "Points") must be a moment PageDown stops at, and
//     is audited there even past the first MOMENTS.
// It prints how many moments it checked and what it found; a failing moment's
// screenshot goes to $SHOTS (default /tmp/key-moments).
//
// Usage: NODE_PATH=<tools>/pw/node_modules LAB=<lab binary> node scripts/key-moments.cjs <base-url>
//   MOMENTS=n (default 12) moments per lesson, and the lesson's last one, LESSONS=a,b to audit some lessons,
//   CONFIGS=0,2 to audit some of the sizes above (by index),
//   ALLOW=<n> lets the run pass with at most n defects (a known count, printed),
//   SHOTS_ALL=1 saves every moment's screenshot (to look at them), not only failing ones.
// scripts/key-moments.sh builds the lab binary and serves the page. Exit 1 on failure.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { launch, settle: wait, stageAudit: audit, lessonsOf, chooseLesson } = require('./chromium.cjs');

const BASE = process.argv[2];
const LAB = process.env.LAB;
const MOMENTS = +(process.env.MOMENTS || 12);
const SHOTS = process.env.SHOTS || '/tmp/key-moments';
const ALLOW = +(process.env.ALLOW || 0);
const ALL_CONFIGS = [
  { w: 1280, h: 720, lang: 'en' },
  { w: 1280, h: 720, lang: 'zh' },
  { w: 1024, h: 768, lang: 'zh' },
  { w: 1024, h: 768, lang: 'en' },
  { w: 1920, h: 1080, lang: 'en' },
  { w: 1280, h: 720, lang: 'zh', projector: true },
  // Traditional at the tightest projector size only: its texts are the Simplified
  // ones converted, of about the same widths (a sample keeps the step short).
  { w: 1024, h: 768, lang: 'zh-Hant' },
];
const CONFIGS = process.env.CONFIGS
  ? process.env.CONFIGS.split(',').map((i) => ALL_CONFIGS[+i])
  : ALL_CONFIGS;
if (!BASE || !LAB) {
  console.error('usage: LAB=<lab binary> node scripts/key-moments.cjs <base-url>');
  process.exit(2);
}

const settle = (page) => wait(page, 40);
const choose = chooseLesson;

// ---------------------------------------------------------------------------
// The engine's word on each lesson: `lab run NAME --trace --metadata`.

const runs = new Map();
function engineRun(name) {
  if (runs.has(name)) return runs.get(name);
  const out = execFileSync(LAB, ['run', name, '--trace', '--metadata'], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const lines = out.trim().split('\n');
  const summary = JSON.parse(lines.pop());
  const txns = [];
  const events = lines.filter((l) => POINT_LINE.test(l)).map((l) => JSON.parse(l));
  for (const l of lines) {
    if (!l.includes('"transaction_')) continue;
    const e = JSON.parse(l);
    if (e.type.startsWith('transaction_')) {
      txns.push({ t: e.t, task: e.task, txn: e.txn, status: e.type.slice('transaction_'.length) });
    }
  }
  const metadata = new Map();
  for (const c of summary.checkpoints) {
    if (c.status === 'completed' && c.metadata) metadata.set(c.id, c.metadata);
  }
  const status = new Map(summary.checkpoints.map((c) => [c.id, c.status]));
  const run = { txns, metadata, status, points: declaredPoints(name, events) };
  runs.set(name, run);
  return run;
}

// ---------------------------------------------------------------------------
// The lesson's declared points, read from its scenario file, and the time each
// happens in the engine's trace.

const POINT_LINE = /"type":"(checkpoint_completed|checkpoint_aborted|alignment_timed_out|barrier_overtook|task_failed|job_restarting|job_failed|job_canceled|job_finished|jobmanager_failed|state_restored|transaction_committed|transaction_aborted|transaction_commit_failed|claimed_snapshot_deleted|checkpoints_discarded)"/;
const POINT_TYPE = {
  checkpoint_expired: (e) => e.type === 'checkpoint_aborted' && e.reason === 'expired',
  failover: (e) => e.type === 'job_restarting',
};
function pointMatches(p, e) {
  const typeOk = POINT_TYPE[p.event] ? POINT_TYPE[p.event](e) : e.type === p.event;
  if (!typeOk) return false;
  if (p.checkpoint !== undefined) {
    const ok = e.type === 'checkpoints_discarded' ? e.checkpoints.includes(p.checkpoint) : e.checkpoint === p.checkpoint;
    if (!ok) return false;
  }
  if (p.txn !== undefined && e.txn !== p.txn) return false;
  if (p.task !== undefined && e.task !== p.task) return false;
  return true;
}
/** `[{label, t}]`: each point expected in the lesson's own mode, and when it happens (null: never). */
function declaredPoints(name, events) {
  const file = path.join(__dirname, '..', 'crates', 'engine', 'scenarios', `${name}.json`);
  if (!fs.existsSync(file)) return [];
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const c = doc.checkpointing;
  const mode = !c ? null : c.mode === 'at_least_once' ? 'at-least-once' : c.unaligned ? 'unaligned' : 'aligned';
  return (doc.points || []).flatMap((p, i) => {
    if (mode && (p.absent || []).includes(mode)) return [];
    const instants = [...new Set(events.filter((e) => pointMatches(p, e)).map((e) => e.t))];
    const t = instants[(p.nth || 1) - 1];
    return [{ label: `points[${i}] ${p.event}${p.checkpoint ? ` chk-${p.checkpoint}` : ''}${p.txn ? ` T${p.txn}` : ''}${p.nth ? ` #${p.nth}` : ''}`, event: p.event, t: t === undefined ? null : t }];
  });
}

const TXN_STATUS = { begun: 'open', precommitted: 'pre-committed', committed: 'committed', aborted: 'aborted' };

/** The statuses transaction `txn` of `task` may have at `now` (before and after the events at `now`). */
function txnStatuses(run, task, txn, now) {
  let before = null;
  let at = null;
  const events = run.txns.filter((e) => e.task === task && e.txn === txn);
  // A sink's first transaction begins as the task starts, before the trace's
  // first event: open until its first event says otherwise.
  if (events.length && events[0].status !== 'begun') before = at = 'open';
  // The page may stop between two events of one millisecond (a sink that
  // pre-commits and commits as its input ends): any status of that instant.
  const during = [];
  for (const e of events) {
    if (e.t < now) before = TXN_STATUS[e.status];
    if (e.t === now) during.push(TXN_STATUS[e.status]);
    if (e.t <= now) at = TXN_STATUS[e.status];
  }
  return new Set([before, ...during, at].filter(Boolean));
}

/** Every `(k, v)` pair stored for operator `uid` (or any operator when the uid is unknown) in `meta`. */
/** A stored value as the page writes it: `[a, b]`, `{a: 1, b: 3}`, never JSON. */
function readable(v) {
  if (Array.isArray(v)) return `[${v.map(readable).join(', ')}]`;
  // Keys in the engine's order (a BTreeMap of strings), not JavaScript's, which
  // puts integer-like keys first in numeric order.
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${k}: ${readable(v[k])}`).join(', ')}}`;
  }
  return String(v);
}

function storedPairs(meta, uids) {
  const pairs = new Set();
  const add = (obj) => {
    if (obj && typeof obj === 'object') {
      for (const [k, v] of Object.entries(obj)) pairs.add(`${k}=${readable(v)}`);
    }
  };
  for (const [uid, entry] of Object.entries(meta)) {
    if (uids.length && !uids.includes(uid)) continue;
    add(entry.offsets);
    add(entry.keyed);
    for (const s of Object.values(entry.states || {})) add(s);
    // Operator state per subtask: a broadcast operator's rules.
    for (const sub of Array.isArray(entry.operator) ? entry.operator : []) {
      for (const [k, v] of Object.entries(sub)) {
        if (k !== 'subtask' && v && typeof v === 'object' && !Array.isArray(v)) add(v);
      }
    }
  }
  return pairs;
}

/** `(k, v)` pairs in a drawn line: `offset (0, 5)`, `(even, 12 ⟲ 6)` (the value after ⟲). */
function drawnPairs(text) {
  const out = [];
  for (const m of text.matchAll(/\(([^,()]+), ([^()]+?)\)/g)) {
    const value = m[2].includes('⟲') ? m[2].split('⟲')[1].trim() : m[2].trim();
    out.push(`${m[1].trim()}=${value}`);
  }
  return out;
}

function valueDefects(run, seen) {
  const defects = [];
  const now = seen.now;
  const uidsOf = (lane) => [lane.split('#')[0], ...seen.uids.filter((u) => u.op === lane.split('#')[0]).map((u) => u.uid)];
  const checkStored = (what, lane, checkpoint, text) => {
    const meta = run.metadata.get(checkpoint);
    if (!meta) {
      // A checkpoint that does not complete stores nothing: only a mark of one in
      // progress may name it.
      if (run.status.get(checkpoint) === 'completed' || run.status.get(checkpoint) === undefined) {
        defects.push(`value: ${what} "${text}" on ${lane} names chk-${checkpoint}, which the engine never completed`);
      }
      return;
    }
    const stored = storedPairs(meta, uidsOf(lane));
    const all = storedPairs(meta, []);
    for (const p of drawnPairs(text)) {
      // A value shortened to fit (`{29: 245, …+5}`) must begin as the stored one.
      const cut = p.match(/^(.*?)(, )?…\+\d+[\]}]$/);
      const matches = (set) => set.has(p) || (cut && [...set].some((q) => q.startsWith(cut[1])));
      if (!matches(stored) && !matches(all)) {
        defects.push(`value: ${what} "${text}" on ${lane}: chk-${checkpoint} stored no ${p.replace('=', ' = ')}`);
      }
    }
  };
  for (const m of seen.marks) {
    if (m.done) checkStored('mark', m.lane, m.checkpoint, m.values);
    else if (run.status.get(m.checkpoint) === 'completed') checkStored('mark', m.lane, m.checkpoint, m.values);
  }
  for (const c of seen.chips) {
    if (run.status.get(c.checkpoint) === 'completed' || c.direction === 'from-storage') {
      checkStored(`chip (${c.direction})`, c.task, c.checkpoint, c.text);
    }
  }
  for (const x of seen.txns) {
    // The trace covers this job only: a restored job's lane may still show the
    // transaction an earlier job left (aborted when that job ended).
    const first = run.txns.find((e) => e.task === x.lane);
    if (first && x.id < first.txn && !run.txns.some((e) => e.task === x.lane && e.txn === x.id)) continue;
    const can = txnStatuses(run, x.lane, x.id, now);
    if (!can.has(x.status)) {
      defects.push(`value: ${x.lane} shows T${x.id} ${x.status} at ${now} ms; the engine says ${[...can].join(' / ') || 'no such transaction'}`);
    }
  }
  return defects;
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  const found = new Map(); // defect kind → count
  const failing = [];
  let moments = 0;
  let probedLabels = 0;
  let probedMarks = 0;
  let pointsDeclared = 0;
  let pointsVisited = 0;
  let shots = 0;
  const started = Date.now();
  for (const cfg of CONFIGS) {
    const where = `${cfg.w}x${cfg.h} ${cfg.lang}${cfg.projector ? ' A+' : ''}`;
    const page = await browser.newPage({ viewport: { width: cfg.w, height: cfg.h } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${BASE}/?lang=${cfg.lang}${cfg.projector ? '&projector=1' : ''}`);
    await page.waitForSelector('#scenario-select option[value]', { state: 'attached' });
    await page.waitForSelector('.stage[data-now]', { state: 'attached' });
    let lessons = await lessonsOf(page);
    if (process.env.LESSONS) lessons = lessons.filter((l) => process.env.LESSONS.split(',').includes(l));
    for (const lesson of lessons) {
      const run = engineRun(lesson);
      await choose(page, lesson);
      let last = null;
      // Simulated times PageDown stopped at, and those of the declared points.
      // (A point may be named by the moment that says the same: a crash for a
      // failed task.)
      const stops = new Set();
      const pointTimes = new Set(run.points.map((p) => p.t).filter((t) => t !== null));
      const atPoint = () => page.$eval('.stage', (s) => +s.dataset.now).then((t) => pointTimes.has(t));
      for (let i = 0; i <= MOMENTS; i++) {
        if (i === MOMENTS) {
          // Past the first MOMENTS: on to the lesson's last key moment (where a
          // tour's last step often is), checked too — stopping on the way at
          // each declared point, which is audited as well.
          let step = await page.$eval('#clock', (c) => c.dataset.step);
          for (let k = 0; k < 60; k++) {
            await page.keyboard.press('PageDown');
            await settle(page);
            const now = await page.$eval('#clock', (c) => c.dataset.step);
            if (now === step) break;
            step = now;
            if (await atPoint()) break;
          }
        } else {
          await page.keyboard.press('PageDown');
          await settle(page);
        }
        const seen = await page.evaluate(audit);
        if (!seen) break;
        const key = `${seen.now}/${seen.step}`;
        if (key === last) break; // no further key moment
        last = key;
        moments++;
        stops.add(+seen.now);
        probedLabels += seen.probed || 0;
        probedMarks += seen.probedMarks || 0;
        const defects = [...seen.issues, ...valueDefects(run, seen)];
        if (process.env.SHOTS_ALL) {
          await page.screenshot({ path: path.join(SHOTS, `${lesson}-${cfg.w}x${cfg.h}-${cfg.lang}${cfg.projector ? '-aplus' : ''}-${String(i).padStart(2, '0')}-${seen.now}.png`) });
        }
        if (defects.length) {
          const unique = [...new Set(defects)];
          for (const d of unique) {
            const kind = d.split(':')[0];
            found.set(kind, (found.get(kind) || 0) + 1);
          }
          failing.push({ where, lesson, now: seen.now, defects: unique });
          if (shots < 200) {
            const file = path.join(SHOTS, `${lesson}-${cfg.w}x${cfg.h}-${cfg.lang}${cfg.projector ? '-aplus' : ''}-${seen.now}.png`);
            await page.screenshot({ path: file });
            shots++;
          }
        }
        // Past the first MOMENTS the loop goes on from a point to the next one.
        if (i === MOMENTS && (await atPoint())) i--;
      }
      for (const p of run.points) {
        pointsDeclared++;
        if (p.t !== null && stops.has(p.t)) {
          pointsVisited++;
        } else {
          found.set('point', (found.get('point') || 0) + 1);
          failing.push({ where, lesson, now: p.t, defects: [`point: ${p.label} (${p.t === null ? 'never happens' : `${p.t} ms`}) is not a moment PageDown stops at`] });
        }
      }
    }
    if (errors.length) failing.push({ where, lesson: '(page)', now: 0, defects: errors.map((e) => `page error: ${e}`) });
    await page.close();
  }
  await browser.close();
  const total = failing.reduce((n, f) => n + f.defects.length, 0);
  for (const f of failing) {
    console.log(`${f.lesson} @ ${f.now} ms, ${f.where}:`);
    for (const d of f.defects.slice(0, 6)) console.log(`    ${d}`);
    if (f.defects.length > 6) console.log(`    … and ${f.defects.length - 6} more`);
  }
  const kinds = [...found.entries()].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  console.log(`key moments: ${moments} checked in ${CONFIGS.length} sizes and languages ` +
    `(${probedLabels} canvas labels and ${probedMarks} records and barriers confirmed by a pixel probe), ` +
    `${pointsVisited} of ${pointsDeclared} declared points visited, ` +
    `${failing.length} with a defect (${total} defects: ${kinds}) in ${Math.round((Date.now() - started) / 1000)} s` +
    (failing.length ? `; screenshots in ${SHOTS}` : ''));
  if (moments < 100 && !process.env.LESSONS && !process.env.CONFIGS) {
    console.log('key moments: too few moments reached — the audit did not step through the lessons');
    process.exit(1);
  }
  if (total > ALLOW) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
