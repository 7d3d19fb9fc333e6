// Each lesson's point on the graph, asserted on the built page with its
// real stylesheet at 1280×720 and 1024×768, zh and en:
//   - odd-even-sum: the source's offset and the sum's keys are on the stage at
//     chk-1 (offset (0, 5); (even, 6) (odd, 9)) and, after the restore, the
//     rewind says so: offset 7 ⟲ 5 (chk-1), (even, 12 ⟲ 6);
//   - at-least-once-duplicates: the sink tab's duplicates carry a ×2 / ×3 badge,
//     as many as the correctness meter counts, and the meter's counts partition
//     the committed chips; exactly-once-kafka ends with none;
//   - exactly-once-kafka-plain: the plain sink's heading is not two-phase commit;
//   - odd-even-sum: offset (0, 5) flows into chk-1 at the snapshot and back at the
//     restore; replayed records are marked, only those with 5 ≤ offset < 7;
//   - unaligned-backpressure: chk-1 in storage lists its persisted channel state;
//   - unaligned-backpressure: a record the barrier overtook keeps chk-1's epoch
//     (the canvas's probe: its checkpoint, its epoch and its pixel colour), no
//     subtask says "aligning", and no two stage labels overlap: the SVG's texts
//     by their boxes, the canvas's labels by the placement pass's own count;
//   - restart-fixed-delay in its restart delay (600 ms): sum#0 drawn failed,
//     every other lane canceled, told apart by stroke pattern and glyph besides
//     colour, each saying "restarting", with no overprinted text; the
//     JobManager-crash pair after the crash: the strip says chk-3 is lost with
//     jobmanager storage, completed with filesystem storage;
//   - kafka-transaction-timeout when checkpoint 4 completes (2135 ms): T3's
//     commit fails, so the Kafka sink's lane names T3 aborted, not ✓T4, and the
//     meter counts its records lost; with the long timeout the lane shows ✓T4;
//     the page stops there (the caption's moment is the declared point
//     `transaction_commit_failed`);
//   - the phase timeline of a checkpoint (the coordinator tab, a history row
//     opened): barrier-alignment's chk-1 while pending (its phases growing) and
//     once completed, unaligned-backpressure's chk-1: bars that take time never
//     overprint each other, the names and numbers never overprint the bars or
//     each other, the axis's ticks stand apart, nothing leaves the drawing; and
//     the real statistics' comparison with tests/fixtures imported;
//     PHASES_ONLY=1 runs only these;
// and with SHOTS=<dir>, screenshots of those moments at 1024×768, 1280×720 and
// 1920×1080 in both languages.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/lesson-on-graph.cjs <base-url>
// (scripts/lesson-on-graph.sh serves the build). Exit 1 on failure.
const { launch, settle: wait } = require('./chromium.cjs');

const SHOTS = process.env.SHOTS;
const SIZES = SHOTS ? [[1024, 768], [1280, 720], [1920, 1080]] : [[1280, 720], [1024, 768]];
const LANGS = ['zh', 'en'];
const failures = [];
const figures = [];
const fail = (m) => failures.push(m);
const settle = (page) => wait(page, 80);

const stateOf = (page, task) => page.$eval(`[data-lane="${task}"] .lane__state`, (e) => e.dataset.state)
  .catch(() => null);

/** Pairs of SVG stage texts whose glyphs would overprint (screen pixels). */
function svgOverlaps() {
  // The flow chips travel across the stage by design (src/scene/flow.rs): not
  // labels; the store they travel to is.
  const boxes = [...document.querySelectorAll('.scene__svg text:not(.flow__text)')]
    .map((t) => ({ t: t.textContent, b: t.getBoundingClientRect() }))
    .filter((x) => x.b.width > 0 && x.b.height > 0);
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].b, b = boxes[j].b;
      const ix = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const iy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      // Text boxes include the font's leading: overprinting glyphs overlap by
      // more than a third of the smaller line.
      if (ix > 1 && iy > 0.34 * Math.min(a.height, b.height)) out.push(`"${boxes[i].t}" / "${boxes[j].t}"`);
    }
  }
  return out;
}

/** Live-state lines that run past their subtask's box (screen pixels). */
function statesOutsideLanes() {
  return [...document.querySelectorAll('.lane .lane__state')].flatMap((t) => {
    const b = t.getBoundingClientRect();
    // A line lent to its chip draws nothing but its mark, or nothing at all.
    if (b.width === 0) return [];
    const r = t.closest('.lane').querySelector('.lane__rect').getBoundingClientRect();
    return b.left < r.left - 1 || b.right > r.right + 1 ? [`"${t.textContent}" (${Math.round(b.right - r.right)} px past)`] : [];
  });
}

async function labelCheck(page, where) {
  const svg = await page.evaluate(svgOverlaps);
  if (svg.length) fail(`${where}: stage texts overlap: ${svg.slice(0, 4).join(', ')}`);
  const outside = await page.evaluate(statesOutsideLanes);
  if (outside.length) fail(`${where}: state lines run past their subtask: ${outside.join(', ')}`);
  const c = await page.$eval('.scene', (e) => ({ ...e.dataset }));
  if (+c.labelOverlaps > 0 || +c.labelsOnObstacles > 0) {
    fail(`${where}: canvas labels: ${c.labelOverlaps} overlapping pairs, ${c.labelsOnObstacles} on a lane or record (of ${c.labels})`);
  }
  return { svg: svg.length, labels: +c.labels, pairs: +c.labelOverlaps, on: +c.labelsOnObstacles };
}

async function shot(page, name, w, h, lang) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${w}x${h}-${lang}.png` });
}

async function oddEvenSum(page, base, lang, w, h) {
  const where = `odd-even-sum ${w}×${h} ${lang}`;
  // At the source's snapshot (550 ms): its values leave the line on a chip.
  await page.goto(`${base}/?lang=${lang}&scenario=odd-even-sum&t=550`);
  await page.waitForSelector('.lane__state', { state: 'attached' });
  await settle(page);
  const src = await stateOf(page, 'numbers#0');
  const sum = await stateOf(page, 'sum#0');
  // Right after chk-1's snapshot the line also says where the values went (✓ chk-1).
  if (!src || !src.replace(/^[⤴✓] chk-1 /, '').startsWith('offset (0, 5)')) fail(`${where} at chk-1: source says ${src}`);
  if (!sum || !sum.includes('(even, 6)') || !sum.includes('(odd, 9)')) fail(`${where} at chk-1: sum says ${sum}`);
  await labelCheck(page, `${where} at chk-1`);
  // The snapshot's values on their way to chk-1 (the source's offset (0, 5)).
  const flows = () => page.$$eval('.flow', (fs) => fs.map((f) => ({ ...f.dataset })));
  const store = () => page.$eval('.flow-store', (s) => s.dataset.checkpoint).catch(() => null);
  const snap = await flows();
  const srcFlow = snap.find((f) => f.task === 'numbers#0' && f.flow === 'snapshot');
  if (!srcFlow || srcFlow.text !== 'offset (0, 5)' || srcFlow.checkpoint !== '1') fail(`${where} at chk-1: no snapshot flow of offset (0, 5) into chk-1: ${JSON.stringify(snap)}`);
  if ((await store()) !== '1') fail(`${where} at chk-1: no chk-1 store drawn`);
  await shot(page, 'state-chk1', w, h, lang);
  await page.goto(`${base}/?lang=${lang}&scenario=odd-even-sum&t=1210`);
  await page.waitForSelector('.lane__state', { state: 'attached' });
  await settle(page);
  const src2 = await stateOf(page, 'numbers#0');
  const sum2 = await stateOf(page, 'sum#0');
  if (src2 !== 'offset 7 ⟲ 5 (chk-1)') fail(`${where} after the restore: source says ${src2}`);
  if (!sum2 || !sum2.includes('(even, 12 ⟲ 6)') || !sum2.includes('(chk-1)')) fail(`${where} after the restore: sum says ${sum2}`);
  await labelCheck(page, `${where} after the restore`);
  await shot(page, 'restore', w, h, lang);
  // Back to just before the restore, then step to it: chk-1's values flow back.
  await page.goto(`${base}/?lang=${lang}&scenario=odd-even-sum&t=900`);
  await page.waitForSelector('.lane__state', { state: 'attached' });
  let back = [];
  for (let i = 0; i < 400 && !back.length; i++) {
    await page.click('#step-forward');
    back = (await flows()).filter((f) => f.flow === 'restore');
  }
  const srcBack = back.find((f) => f.task === 'numbers#0');
  if (!srcBack || srcBack.text !== 'offset (0, 5)' || srcBack.checkpoint !== '1') fail(`${where} at the restore: no flow of offset (0, 5) back from chk-1: ${JSON.stringify(back)}`);
  await settle(page);
  await shot(page, 'restore-flow', w, h, lang);
  // The records read again are marked, and only those below the offset read
  // before the failure (7), from the restored offset (5) on.
  let replays = null;
  for (let i = 0; i < 400 && !replays; i++) {
    const d = await page.$eval('.scene__tokens', (c) => ({ ...c.dataset }));
    if (+d.replays > 0) replays = d;
    else await page.click('#step-forward');
  }
  if (!replays) fail(`${where}: no replayed record marked after the restore`);
  else {
    const offs = (list) => (list || '').split(' ').filter(Boolean).map((o) => +o.split(':')[1]);
    const marked = offs(replays.replayOrigins), fresh = offs(replays.freshOrigins);
    if (marked.some((o) => o < 5 || o >= 7)) fail(`${where}: replay marks on offsets ${marked} (want 5 ≤ offset < 7)`);
    if (fresh.some((o) => o < 7)) fail(`${where}: unmarked replays at offsets ${fresh}`);
    await settle(page);
    await shot(page, 'replay', w, h, lang);
    return `odd-even-sum: "${src}", "${sum}" → "${src2}", "${sum2}"; snapshot flow "${srcFlow && srcFlow.text}", back "${srcBack && srcBack.text}"; replays marked at offsets ${marked}, unmarked ${fresh}`;
  }
  return `odd-even-sum: "${src}", "${sum}" → "${src2}", "${sum2}"`;
}

async function taskStates(page, base, lang, w, h) {
  const where = `restart-fixed-delay ${w}×${h} ${lang}`;
  await page.goto(`${base}/?lang=${lang}&scenario=restart-fixed-delay&t=600`);
  await page.waitForSelector('.lane--failed');
  await settle(page);
  const lanes = await page.$$eval('[data-lane]', (ls) => ls.map((l) => {
    const rect = getComputedStyle(l.querySelector('.lane__rect'));
    return {
      name: l.dataset.lane,
      state: ['failed', 'canceled', 'running'].find((s) => l.classList.contains(`lane--${s}`)),
      status: l.querySelector('.lane__status').textContent,
      note: l.querySelector('.lane__note')?.textContent || '',
      dash: rect.strokeDasharray,
      stroke: rect.stroke,
    };
  }));
  const failed = lanes.filter((l) => l.state === 'failed');
  const canceled = lanes.filter((l) => l.state === 'canceled');
  if (failed.map((l) => l.name).join() !== 'sum#0') fail(`${where}: failed lanes ${failed.map((l) => l.name)}`);
  if (canceled.length !== lanes.length - 1) fail(`${where}: canceled lanes ${canceled.map((l) => l.name)}`);
  for (const l of lanes) if (!l.note.includes('↻')) fail(`${where}: ${l.name} does not say restarting (${l.note})`);
  if (failed.some((l) => l.dash !== 'none' || !l.status.startsWith('✕'))) fail(`${where}: the failed lane ${JSON.stringify(failed)}`);
  if (canceled.some((l) => l.dash === 'none' || !l.status.startsWith('■') || l.stroke === failed[0]?.stroke)) {
    fail(`${where}: canceled lanes not told apart: ${JSON.stringify(canceled[0])}`);
  }
  await labelCheck(page, where);
  await shot(page, 'restart-delay', w, h, lang);
  const strips = [];
  for (const [scenario, lost] of [['jobmanager-crash-jobmanager', true], ['jobmanager-crash-filesystem', false]]) {
    await page.goto(`${base}/?lang=${lang}&scenario=${scenario}&t=3700`);
    await page.waitForSelector('.strip__last');
    await settle(page);
    const strip = await page.$eval('.strip__last', (e) => ({ text: e.textContent, lost: e.classList.contains('strip__last--lost') }));
    if (strip.lost !== lost || !strip.text.includes('chk-3')) fail(`${scenario} ${w}×${h} ${lang}: strip says "${strip.text}"`);
    strips.push(`"${strip.text}"`);
  }
  return `task states: ${failed.length} failed, ${canceled.length} canceled, all restarting; JobManager crash: ${strips.join(' vs ')}`;
}

async function sinkVerdicts(page, base, lang, w, h, scenario) {
  const where = `${scenario} ${w}×${h} ${lang}`;
  await page.goto(`${base}/?lang=${lang}&scenario=${scenario}&t=100000`);
  await page.waitForSelector('.operator__name');
  await page.click('#tab-sink');
  await page.waitForSelector('.verdicts');
  await settle(page);
  const v = await page.$eval('.sink', (s) => ({
    heading: s.querySelector('.sink__heading').textContent,
    kind: s.dataset.sinkKind,
    counts: { ...s.querySelector('.verdicts').dataset },
    chips: s.querySelectorAll('.consumer--committed .record-chip').length,
    badges: [...s.querySelectorAll('.consumer--committed .record-chip--duplicate .record-chip__badge')].map((b) => b.textContent),
  }));
  const [committed, dups, notYet, lost] = ['committed', 'duplicates', 'notYet', 'lost'].map((k) => +v.counts[k]);
  if (v.badges.length !== dups) fail(`${where}: ${v.badges.length} badges, the meter counts ${dups} duplicates`);
  if (committed + dups !== v.chips) fail(`${where}: ${committed} + ${dups} ≠ ${v.chips} committed chips`);
  if (v.badges.some((b) => !/^×[2-9]\d*$/.test(b))) fail(`${where}: badges ${v.badges.join(' ')}`);
  await shot(page, `sink-${scenario}`, w, h, lang);
  return { where, ...v, committed, dups, notYet, lost };
}

async function unaligned(page, base, lang, w, h) {
  const where = `unaligned-backpressure ${w}×${h} ${lang}`;
  await page.goto(`${base}/?lang=${lang}&scenario=unaligned-backpressure&t=1000`);
  await page.waitForSelector('.operator__name');
  await settle(page);
  let probe = '';
  for (let i = 0; i < 1500 && !probe; i++) {
    await page.click('#step-forward');
    probe = await page.$eval('.scene__tokens', (c) => c.dataset.persistedProbe || '');
  }
  if (!probe) { fail(`${where}: no overtaken record drawn`); return null; }
  await settle(page);
  probe = await page.$eval('.scene__tokens', (c) => c.dataset.persistedProbe);
  const [x, y, hex, epoch, by] = probe.split(',');
  if (epoch !== '1' || by !== '1') fail(`${where}: the first overtaken record has epoch ${epoch}, persisted into chk-${by} (want chk-1's)`);
  const off = await page.evaluate(([x, y, hex]) => {
    const c = document.querySelector('.scene__tokens');
    const dpr = devicePixelRatio || 1;
    const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let best = 1e9;
    for (let dx = 0; dx < 3; dx++) for (let dy = 0; dy < 3; dy++) {
      const d = c.getContext('2d').getImageData(Math.round(+x * dpr) + dx, Math.round(+y * dpr) + dy, 1, 1).data;
      best = Math.min(best, Math.max(...want.map((v, k) => Math.abs(d[k] - v))));
    }
    return best;
  }, [x, y, hex]);
  if (off > 40) fail(`${where}: the overtaken record's pixels are ${off} off chk-1's colour ${hex}`);
  const notes = await page.$$eval('.lane__note', (ns) => ns.map((n) => n.textContent));
  const aligning = notes.filter((n) => /aligning|对齐 B/.test(n) && !/unaligned|非对齐/.test(n));
  if (aligning.length) fail(`${where}: an unaligned subtask says ${aligning[0]}`);
  const labels = await labelCheck(page, where);
  await shot(page, 'unaligned-overtaken', w, h, lang);
  // Once chk-1 completes, the storage tab lists its persisted channel state.
  await page.goto(`${base}/?lang=${lang}&scenario=unaligned-backpressure&t=1100`);
  await page.waitForSelector('.operator__name');
  await page.click('#tab-storage');
  await page.waitForSelector('.stored');
  await settle(page);
  const chk1 = await page.$eval('.stored[data-checkpoint="1"]', (s) => {
    const c = s.querySelector('.stored__channels');
    return c && { total: +c.dataset.channelState, rows: [...c.querySelectorAll('.stored__channel')].map((r) => r.textContent), ring: !!c.querySelector('.persisted-ring') };
  }).catch(() => null);
  if (!chk1 || !(chk1.total > 0) || !chk1.rows.length || !chk1.ring) fail(`${where}: chk-1 in storage lists no persisted channel state: ${JSON.stringify(chk1)}`);
  await shot(page, 'unaligned-storage', w, h, lang);
  return { where, probe, notes, labels, chk1 };
}

/** Overprints inside every phase timeline on the page (screen pixels). */
function phaseOverprints() {
  const out = [];
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (const fig of document.querySelectorAll('.phases')) {
    const f = fig.getBoundingClientRect();
    const id = `chk-${fig.dataset.checkpoint}`;
    const ticks = [...fig.querySelectorAll('.phases__tick')].map((t) => t.getBoundingClientRect());
    for (let i = 1; i < ticks.length; i++) if (cross(ticks[i - 1], ticks[i])) out.push(`${id}: axis ticks ${i - 1} and ${i} overlap`);
    for (const t of ticks) if (t.left < f.left - 1 || t.right > f.right + 1) out.push(`${id}: an axis tick leaves the drawing`);
    const axis = fig.querySelector('.phases__axis').getBoundingClientRect();
    for (const row of fig.querySelectorAll('.phases__row')) {
      const task = row.dataset.task;
      const track = row.querySelector('.phases__track').getBoundingClientRect();
      if (cross(axis, track)) out.push(`${id} ${task}: the axis overprints the track`);
      const name = row.querySelector('.phases__name').getBoundingClientRect();
      const nums = row.querySelector('.phases__numbers').getBoundingClientRect();
      if (cross(name, nums)) out.push(`${id} ${task}: name and numbers overlap`);
      for (const [what, r] of [['name', name], ['numbers', nums]]) {
        if (cross(r, track)) out.push(`${id} ${task}: its ${what} overprints the bars`);
        if (r.right > f.right + 1) out.push(`${id} ${task}: its ${what} leaves the drawing`);
      }
      const bars = [...row.querySelectorAll('.phases__bar')].map((b) => ({
        phase: b.dataset.phase, timed: +b.dataset.to > +b.dataset.from, r: b.getBoundingClientRect(),
      }));
      for (const b of bars) {
        if (b.r.left < track.left - 1 || b.r.right > track.right + 1 || b.r.width < 2) out.push(`${id} ${task}: the ${b.phase} bar is outside its track or invisible`);
      }
      const timed = bars.filter((b) => b.timed);
      for (let i = 0; i < timed.length; i++) for (let j = i + 1; j < timed.length; j++) {
        if (cross(timed[i].r, timed[j].r)) out.push(`${id} ${task}: ${timed[i].phase} and ${timed[j].phase} overprint`);
      }
    }
  }
  return out;
}

async function phaseTimelines(page, base, lang, w, h) {
  const found = [];
  const open = async (scenario, t, id, tab) => {
    const where = `phases ${scenario} chk-${id} at ${t} ms ${w}×${h} ${lang}`;
    await page.goto(`${base}/?lang=${lang}&scenario=${scenario}&t=${t}`);
    await page.waitForSelector('.operator__name');
    await page.click('#tab-coordinator');
    const toggle = `.history .hist[data-checkpoint="${id}"] .hist__toggle`;
    await page.waitForSelector(toggle);
    if ((await page.$eval(toggle, (b) => b.getAttribute('aria-expanded'))) !== 'true') await page.click(toggle);
    await page.waitForSelector(`.hist[data-checkpoint="${id}"] .phases__row`);
    await settle(page);
    const rows = await page.$$eval(`.hist[data-checkpoint="${id}"] .phases__row`, (rs) => rs.map((r) => ({
      task: r.dataset.task, bars: r.querySelectorAll('.phases__bar').length, numbers: r.querySelector('.phases__numbers').textContent,
    })));
    if (!rows.length || rows.every((r) => !r.bars)) fail(`${where}: no bars drawn`);
    const over = await page.evaluate(phaseOverprints);
    if (over.length) fail(`${where}: ${over.slice(0, 4).join('; ')}`);
    const pending = await page.$eval(`.hist[data-checkpoint="${id}"] .phases`, (f) => f.classList.contains('phases--pending'));
    found.push(`${where}: ${rows.length} rows${pending ? ' (pending)' : ''}, top ${rows[0] && rows[0].task}: "${rows[0] && rows[0].numbers}"`);
    await page.$eval(`.hist[data-checkpoint="${id}"] .phases__legend`, (e) => e.scrollIntoView());
    await settle(page);
    await shot(page, `${tab}`, w, h, lang);
  };
  await open('barrier-alignment', 520, 1, 'phases-aligned-pending');
  await open('barrier-alignment', 5000, 1, 'phases-aligned');
  await open('unaligned-backpressure', 1100, 1, 'phases-unaligned');
  // The real statistics beside the lab's: chk-1's phases on both sides.
  const where = `phases compared ${w}×${h} ${lang}`;
  await page.click('#tab-flink');
  await page.waitForSelector('#real-file', { state: 'attached' });
  await page.setInputFiles('#real-file', `${__dirname}/../tests/fixtures/flink-stats-unaligned-backpressure.json`);
  await page.waitForSelector('#real-real .real-row');
  for (const side of ['lab', 'real']) {
    const summary = `#real-${side} .real-row[data-checkpoint="1"] .phases-details > summary`;
    await page.waitForSelector(summary);
    await page.$eval(summary, (s) => s.parentElement.setAttribute('open', ''));
  }
  await page.$eval('#real-stats', (s) => s.scrollIntoView());
  await page.$eval('#real-lab .real-row[data-checkpoint="1"] .phases-details', (d) => d.scrollIntoView());
  await settle(page);
  const over = await page.evaluate(phaseOverprints);
  if (over.length) fail(`${where}: ${over.slice(0, 4).join('; ')}`);
  const sides = await page.$$eval('.real-row[data-checkpoint="1"] .phases', (fs) => fs.map((f) => f.querySelectorAll('.phases__row').length));
  if (sides.length !== 2 || sides.some((n) => !n)) fail(`${where}: chk-1's phases drawn on ${sides.length} sides (${sides})`);
  found.push(`${where}: chk-1 rows lab ${sides[0]}, real ${sides[1]}`);
  await shot(page, 'phases-compared', w, h, lang);
  return found;
}

/** The Kafka sink's lane badge and the meter's lost count at `t` of `lesson`,
 *  reached with PageDown from 30 ms before: the key moments at `t` in turn (a
 *  checkpoint's completion, then what its commit did, are steps of one
 *  millisecond) until the one named `want`. */
async function kafkaLane(page, base, lang, w, h, lesson, t, want) {
  await page.goto(`${base}/?lang=${lang}&scenario=${lesson}&t=${t - 30}`);
  await page.waitForSelector('[data-lane="kafka-out#0"]', { state: 'attached' });
  await settle(page);
  await page.click('.scene-box', { position: { x: 5, y: 5 } }).catch(() => {});
  let now = 0;
  let moment = '';
  for (let presses = 0; presses < 4 && moment !== want && now <= t; presses++) {
    await page.keyboard.press('PageDown');
    await settle(page);
    now = await page.$eval('.stage', (s) => +s.dataset.now);
    moment = await page.$eval('#live-narration', (c) => c.dataset.moment || '');
  }
  const badge = await page.$eval('[data-lane="kafka-out#0"] .lane__txn', (g) => ({ text: g.textContent, status: g.dataset.txnStatus }))
    .catch(() => null);
  await page.click('#tab-sink').catch(() => {});
  await settle(page);
  await page.waitForSelector('.verdicts', { state: 'attached' }).catch(() => {});
  const lost = await page.$$eval('.verdicts', (vs) => vs.map((v) => +v.dataset.lost));
  return { where: `${lesson} at ${t} ms ${w}×${h} ${lang}`, now, moment, badge, lost };
}

async function kafkaTimeout(page, base, lang, w, h) {
  const k = await kafkaLane(page, base, lang, w, h, 'kafka-transaction-timeout', 2135, 'transaction_commit_failed');
  if (k.now !== 2135) fail(`${k.where}: PageDown stopped at ${k.now} ms, not at the failed commit`);
  if (k.moment !== 'transaction_commit_failed') fail(`${k.where}: the caption's moment is "${k.moment}", not the failed commit`);
  if (!k.badge || !/T3\b/.test(k.badge.text) || k.badge.status !== 'aborted') fail(`${k.where}: the lane says ${JSON.stringify(k.badge)}, not T3 aborted`);
  // The meter counts T3's records lost from the failed commit on.
  if (!k.lost.length || !k.lost.some((n) => n > 0)) fail(`${k.where}: the meter counts ${JSON.stringify(k.lost)} lost, not T3's records`);
  await shot(page, 'kafka-commit-failed', w, h, lang);
  const l = await kafkaLane(page, base, lang, w, h, 'kafka-transaction-timeout-long', 2135, 'commit');
  if (!l.badge || !/T4\b/.test(l.badge.text) || l.badge.status !== 'committed') fail(`${l.where}: the lane says ${JSON.stringify(l.badge)}, not T4 committed`);
  return `${k.where}: stopped at ${k.now} ms on "${k.moment}", lane "${k.badge && k.badge.text}" (${k.badge && k.badge.status}), meter lost ${JSON.stringify(k.lost)}; long timeout: lane "${l.badge && l.badge.text}"`;
}

(async () => {
  const base = process.argv[2];
  const browser = await launch();
  for (const [w, h] of SIZES) {
    for (const lang of LANGS) {
      const page = await browser.newPage({ viewport: { width: w, height: h } });
      figures.push(...(await phaseTimelines(page, base, lang, w, h)));
      if (process.env.PHASES_ONLY) { await page.close(); continue; }
      figures.push(await oddEvenSum(page, base, lang, w, h));
      figures.push(await taskStates(page, base, lang, w, h));
      figures.push(await kafkaTimeout(page, base, lang, w, h));
      const alo = await sinkVerdicts(page, base, lang, w, h, 'at-least-once-duplicates');
      if (alo.dups === 0) fail(`${alo.where}: no duplicate marked`);
      if (/两阶段提交|Two-phase/.test(alo.heading)) fail(`${alo.where}: a plain sink headed ${alo.heading}`);
      figures.push(`${alo.where}: ${alo.committed} committed, ${alo.dups} duplicates (${alo.badges.join(' ')}), ${alo.notYet} not yet, ${alo.lost} lost — "${alo.heading}"`);
      const plain = await sinkVerdicts(page, base, lang, w, h, 'exactly-once-kafka-plain');
      if (/两阶段提交|Two-phase/.test(plain.heading) || plain.kind === 'two-phase-commit') fail(`${plain.where}: heading ${plain.heading}`);
      figures.push(`${plain.where}: ${plain.committed} committed, ${plain.dups} duplicates, ${plain.notYet} not yet, ${plain.lost} lost — "${plain.heading}"`);
      const eo = await sinkVerdicts(page, base, lang, w, h, 'exactly-once-kafka');
      if (eo.dups || eo.lost || eo.notYet) fail(`${eo.where}: exactly-once ends with ${eo.dups} duplicates, ${eo.lost} lost, ${eo.notYet} not yet`);
      if (eo.kind !== 'two-phase-commit') fail(`${eo.where}: kind ${eo.kind}`);
      figures.push(`${eo.where}: ${eo.committed} committed, ${eo.dups} duplicates, ${eo.notYet} not yet, ${eo.lost} lost — "${eo.heading}"`);
      // Exactly-once vs plain, mid-run: "not committed yet" counted apart, never "missing".
      await page.goto(`${base}/?lang=${lang}&scenario=exactly-once-kafka&t=1500`);
      // The compare button sits in the lesson menu: click it as the menu would.
      await page.waitForSelector('#compare-exactly-once-kafka-plain', { state: 'attached' });
      await page.$eval('#compare-exactly-once-kafka-plain', (b) => b.click());
      await page.waitForSelector('.pair-diff__run');
      await settle(page);
      const runs = await page.$$eval('.pair-diff__run', (rs) => rs.map((r) => ({ ...r.dataset, text: r.textContent })));
      const diff = await page.$eval('#pair-diff', (d) => d.textContent);
      if (/missing|少了/.test(diff)) fail(`exactly-once vs plain ${w}×${h} ${lang}: says missing: ${diff}`);
      if (!runs.length || +runs[0].notYet === 0) fail(`exactly-once vs plain ${w}×${h} ${lang}: nothing not committed yet: ${JSON.stringify(runs)}`);
      figures.push(`exactly-once vs plain at 1500 ms ${w}×${h} ${lang}: ${runs.map((r) => r.text).join(' | ')}`);
      await shot(page, 'compare-eo-plain', w, h, lang);
      const u = await unaligned(page, base, lang, w, h);
      if (u) figures.push(`${u.where}: probe ${u.probe}; notes ${JSON.stringify(u.notes)}; ${u.labels.labels} canvas labels, ${u.labels.pairs} overlapping, ${u.labels.on} on obstacles, ${u.labels.svg} SVG text overlaps; chk-1 channel state ${u.chk1 && u.chk1.total} records (${u.chk1 && u.chk1.rows.join('; ')})`);
      await page.close();
    }
  }
  await browser.close();
  for (const f of figures) console.log(f);
  if (failures.length) {
    console.error(`${failures.length} failure(s):\n${failures.join('\n')}`);
    process.exit(1);
  }
  console.log('lesson-on-graph: all checks pass');
})().catch((e) => { console.error(e); process.exit(1); });
