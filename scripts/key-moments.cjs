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
//   - the scrubber's markers (✓n, ✕n, ⚡) covering one another.
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
const { launch, settle: wait } = require('./chromium.cjs');

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
];
const CONFIGS = process.env.CONFIGS
  ? process.env.CONFIGS.split(',').map((i) => ALL_CONFIGS[+i])
  : ALL_CONFIGS;
if (!BASE || !LAB) {
  console.error('usage: LAB=<lab binary> node scripts/key-moments.cjs <base-url>');
  process.exit(2);
}

const settle = (page) => wait(page, 40);

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
  const run = { txns, metadata, status };
  runs.set(name, run);
  return run;
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

// ---------------------------------------------------------------------------
// What the browser rendered (runs in the page).

function audit() {
  const stage = document.querySelector('.stage');
  if (!stage) return null;
  const vp = stage.querySelector('.stage__viewport') || stage;
  const frame = vp.getBoundingClientRect();
  const clipTo = {
    left: Math.max(frame.left, 0),
    top: Math.max(frame.top, 0),
    right: Math.min(frame.right, innerWidth),
    bottom: Math.min(frame.bottom, innerHeight),
  };
  const visible = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || +cs.opacity < 0.05) return false;
      if (e.classList && e.classList.contains('visually-hidden')) return false;
    }
    return true;
  };
  const texts = [];
  // SVG texts: one box per <text> (its tspans are inside it).
  for (const t of stage.querySelectorAll('svg text')) {
    const s = t.textContent.trim();
    if (!s || !visible(t)) continue;
    const b = t.getBoundingClientRect();
    if (b.width < 1 || b.height < 1) continue;
    texts.push({ s, b, el: t, kind: t.getAttribute('class') || t.parentElement.getAttribute('class') || 'text' });
  }
  // HTML texts: the line boxes of each text node.
  const walker = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.textContent.trim();
    if (!s || n.parentElement.closest('svg') || !visible(n.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const b of range.getClientRects()) {
      if (b.width < 1 || b.height < 1) continue;
      texts.push({ s, b, el: n.parentElement, kind: n.parentElement.className || 'html' });
    }
  }
  const name = (x) => `"${x.s.length > 40 ? x.s.slice(0, 39) + '…' : x.s}"`;
  const issues = [];
  // Overprint: glyphs overlap (a text box includes the font's leading, so the
  // vertical overlap must exceed a third of the smaller line).
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], c = texts[j];
      if (a.el === c.el || a.el.contains(c.el) || c.el.contains(a.el)) continue;
      const ix = Math.min(a.b.right, c.b.right) - Math.max(a.b.left, c.b.left);
      const iy = Math.min(a.b.bottom, c.b.bottom) - Math.max(a.b.top, c.b.top);
      if (ix > 1.5 && iy > 0.34 * Math.min(a.b.height, c.b.height)) {
        issues.push(`overprint: ${name(a)} / ${name(c)}`);
      }
    }
  }
  // Borders through text: a stroked box's edge inside a text's glyph band.
  const borders = [];
  for (const r of stage.querySelectorAll('svg rect')) {
    if (!visible(r)) continue;
    const cs = getComputedStyle(r);
    if (cs.stroke === 'none' || parseFloat(cs.strokeWidth) <= 0 || +cs.strokeOpacity < 0.2) continue;
    const b = r.getBoundingClientRect();
    if (b.width < 4 || b.height < 4) continue;
    borders.push({ b, el: r, what: r.getAttribute('class') || r.parentElement.getAttribute('class') || 'box' });
  }
  for (const x of texts) {
    // The glyph band: without the ascent above cap height and the descent.
    const g = { left: x.b.left + 1, right: x.b.right - 1, top: x.b.top + 0.2 * x.b.height, bottom: x.b.bottom - 0.22 * x.b.height };
    for (const r of borders) {
      const b = r.b;
      const radius = 6;
      const hOverlap = Math.min(g.right, b.right - radius) - Math.max(g.left, b.left + radius);
      const vOverlap = Math.min(g.bottom, b.bottom - radius) - Math.max(g.top, b.top + radius);
      const crossesH = [b.top, b.bottom].some((y) => y > g.top && y < g.bottom) && hOverlap > 2;
      const crossesV = [b.left, b.right].some((xx) => xx > g.left && xx < g.right) && vOverlap > 0.3 * (g.bottom - g.top);
      if (crossesH || crossesV) issues.push(`border: ${r.what} through ${name(x)}`);
    }
    // Clipping: outside the stage (or the window).
    if (x.b.left < clipTo.left - 1 || x.b.right > clipTo.right + 1 || x.b.top < clipTo.top - 1 || x.b.bottom > clipTo.bottom + 1) {
      issues.push(`clipped: ${name(x)} outside the stage`);
    }
  }
  // HTML text cut short by its box (an ellipsis or overflow: hidden).
  for (const el of stage.querySelectorAll('*')) {
    if (el.closest('svg') || !el.textContent.trim() || !visible(el)) continue;
    const cs = getComputedStyle(el);
    const hides = cs.overflowX === 'hidden' || cs.overflowX === 'clip' || cs.textOverflow === 'ellipsis';
    if (hides && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      issues.push(`clipped: "${el.textContent.trim().slice(0, 40)}" cut short by its box`);
    }
  }
  // Values, for the engine comparison.
  const marks = [...stage.querySelectorAll('.lane__state')].flatMap((t) => {
    const snap = t.querySelector('.lane__state-snap');
    if (!snap) return [];
    const m = snap.textContent.match(/([✓⤴])\s*chk-(\d+)/);
    if (!m) return [];
    const values = t.textContent.replace(snap.textContent, '');
    return [{ lane: t.closest('.lane').dataset.lane, checkpoint: +m[2], done: m[1] === '✓', values }];
  });
  const chips = [...stage.querySelectorAll('.flow')].map((g) => ({
    checkpoint: +g.dataset.checkpoint,
    direction: g.dataset.flow,
    task: g.dataset.task,
    text: g.dataset.text,
  }));
  const txns = [];
  for (const g of stage.querySelectorAll('.lane__txn')) {
    const m = g.textContent.match(/T(\d+)/);
    if (m) txns.push({ lane: g.closest('.lane').dataset.lane, id: +m[1], status: g.dataset.txnStatus });
  }
  const words = { open: ['open', '开启', '写入中'], 'pre-committed': ['pre-committed', '预提交', '已预提交'] };
  for (const t of stage.querySelectorAll('.lane__state')) {
    const lane = t.closest('.lane').dataset.lane;
    for (const m of t.textContent.matchAll(/(\S+)\s+T(\d+)/g)) {
      const status = Object.keys(words).find((k) => words[k].includes(m[1]));
      if (status) txns.push({ lane, id: +m[2], status });
    }
  }
  const scene = document.querySelector('.scene');
  const canvas = scene ? { pairs: +scene.dataset.labelOverlaps || 0, on: +scene.dataset.labelsOnObstacles || 0 } : { pairs: 0, on: 0 };
  if (canvas.pairs) issues.push(`overprint: ${canvas.pairs} pairs of canvas labels`);
  if (canvas.on) issues.push(`overprint: ${canvas.on} canvas labels on a lane or record`);
  // The canvas labels' boxes as the page exposes them, checked two ways: a pixel
  // probe of the canvas inside each box (the label is painted there, so the box
  // is true), then each box against the SVG's rendered texts (no overprint).
  const svg = scene && scene.querySelector('svg');
  const paper = scene && scene.querySelector('canvas');
  const boxes = scene ? (scene.dataset.labelBoxes || '').split(';').filter(Boolean).map((b) => b.split(',').map(Number)) : [];
  let probed = 0;
  if (svg && paper && boxes.length && paper.width > 0) {
    const m = svg.getScreenCTM();
    const at = (x, y) => ({ x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f });
    const c = paper.getBoundingClientRect();
    const ctx = paper.getContext('2d');
    const kx = paper.width / c.width;
    const ky = paper.height / c.height;
    for (const [x, y, w, h] of boxes) {
      const p = at(x, y);
      const q = at(x + w, y + h);
      const b = { left: p.x, top: p.y, right: q.x, bottom: q.y };
      const px = Math.max(0, Math.floor((b.left - c.left) * kx));
      const py = Math.max(0, Math.floor((b.top - c.top) * ky));
      const pw = Math.min(paper.width - px, Math.ceil((b.right - b.left) * kx));
      const ph = Math.min(paper.height - py, Math.ceil((b.bottom - b.top) * ky));
      if (pw < 1 || ph < 1) continue;
      const data = ctx.getImageData(px, py, pw, ph).data;
      let ink = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 40) ink++;
      probed++;
      if (ink < 0.04 * pw * ph) {
        issues.push(`canvas label: its box (${Math.round(b.left)},${Math.round(b.top)}) holds no painted label`);
        continue;
      }
      for (const t of texts) {
        const ix = Math.min(b.right, t.b.right) - Math.max(b.left, t.b.left);
        const iy = Math.min(b.bottom, t.b.bottom) - Math.max(b.top, t.b.top);
        if (ix > 1.5 && iy > 0.34 * Math.min(b.bottom - b.top, t.b.height)) {
          issues.push(`overprint: a canvas label / ${name(t)}`);
        }
      }
    }
  }
  // The scrubber's markers (✓n, ✕n, ⚡) under the stage: none covers another's label.
  const markers = [...document.querySelectorAll('.scrubber__markers .marker')]
    .map((m) => ({ r: m.getBoundingClientRect(), text: m.textContent.trim() }))
    .filter((m) => m.r.width > 0);
  for (let i = 0; i < markers.length; i++) {
    for (let j = i + 1; j < markers.length; j++) {
      const [a, b] = [markers[i].r, markers[j].r];
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) {
        issues.push(`overprint: timeline markers "${markers[i].text}" and "${markers[j].text}"`);
      }
    }
  }
  const uids = [...document.querySelectorAll('.operator')].map((o) => ({ op: o.dataset.op, uid: o.dataset.uid || o.dataset.op }));
  const clock = document.querySelector('#clock');
  return { now: +stage.dataset.now, step: clock ? clock.dataset.step : '', texts: texts.length, issues, marks, chips, txns, uids, probed };
}

// ---------------------------------------------------------------------------

async function lessonsOf(page) {
  return page.$$eval('#scenario-select option', (os) => os.map((o) => o.value).filter(Boolean));
}

async function choose(page, name) {
  await page.selectOption('#scenario-select', name);
  await page.waitForFunction((n) => document.querySelector('#scenario-select').value === n
    && document.querySelector('.stage[data-now]'), name);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await settle(page);
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  const found = new Map(); // defect kind → count
  const failing = [];
  let moments = 0;
  let probedLabels = 0;
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
      for (let i = 0; i <= MOMENTS; i++) {
        if (i === MOMENTS) {
          // Past the first MOMENTS: on to the lesson's last key moment (where a
          // tour's last step often is), checked too.
          let step = await page.$eval('#clock', (c) => c.dataset.step);
          for (let k = 0; k < 60; k++) {
            await page.keyboard.press('PageDown');
            await settle(page);
            const now = await page.$eval('#clock', (c) => c.dataset.step);
            if (now === step) break;
            step = now;
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
        probedLabels += seen.probed || 0;
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
    `(${probedLabels} canvas labels confirmed by a pixel probe), ` +
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
