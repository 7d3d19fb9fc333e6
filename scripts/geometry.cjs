// Geometry of the built page where it is real: the release build in
// headless Chromium with its own stylesheet, at classroom projector sizes. For
// every built-in lesson at 1280×720 and 1024×768, in zh and en, it asserts
//   - the stage (job graph + coordinator strip) covers ≥ 65 % of the viewport,
//     and its drawn content (operator boxes, channels) fills ≥ 90 % of the stage
//     in one dimension;
//   - operator names render ≥ 18 CSS px; subtask names, states, the live-state
//     lines (`offset (0, 5)`) and record labels ≥ 14 px (font size × the SVG's
//     scale on screen);
//   - projector mode (A⁺) renders operator names ≥ 15 % larger (≥ 5 % where
//     the graph's height bounds it: its lanes grow to hold the larger rows);
//   - the tour (with its answer open), the glossary and the editor never cover
//     an operator box or a channel and leave the stage ≥ 55 %; in the twin view
//     the two stages take ≥ 65 % together and ≥ 30 % each;
//   - the comparison charts of the lesson pairs and of the twin view, and the
//     savepoint-rescale key-group strip: never over the stage, inside the
//     viewport, text ≥ 14 px, the stage still ≥ 55 %;
//   - the caption under the graph shows the latest narration sentence;
//   - the Flink code tab: code ≥ 14 px in a box ≥ 60 columns that never scrolls
//     sideways, its CheckpointConfig lines highlighted; the recorded real
//     statistics, imported from their file, in 7 rows beside the lab's;
//   - the key map: after a mouse click on a side tab the arrows step the
//     simulation, a keyboard user's arrows still move between tabs, PageDown
//     goes to the next key moment;
// and at 390 px wide (a phone) that no lesson scrolls sideways, in both
// languages. One browser, one page per size and language: lessons are switched
// with the scenario picker, not reloaded.
//
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/geometry.cjs <base-url>
// (scripts/geometry.sh builds or reuses dist/ and serves it). Exit 1 on failure.
const { launch, settle: wait, openTourAnswer } = require('./chromium.cjs');

const SIZES = [[1280, 720], [1024, 768]];
const LANGS = ['zh', 'en'];
// Traditional at 1024×768 only (the tighter size): its texts are the Simplified ones converted.
const langsAt = (size) => (size[0] === 1024 ? [...LANGS, 'zh-Hant'] : LANGS);
const failures = [];
const worst = {};
const fail = (msg) => failures.push(msg);
const note = (key, value, better) => {
  const w = worst[key];
  if (w === undefined || (better === 'max' ? value < w.value : value > w.value)) {
    worst[key] = { value, ...note.at };
  }
};
note.at = {};

const settle = (page) => wait(page).then(() => wait(page, 0));

async function choose(page, name) {
  await page.selectOption('#scenario-select', name);
  // Its stage, not the last lesson's (still shown while its data is fetched).
  await page.waitForFunction((n) => document.querySelector('#scenario-select').value === n
    && document.querySelector(`.stage[data-scenario="${n}"]`), name);
  await settle(page);
}

/** Everything measured on the page as it is now. */
function measure() {
  const vw = innerWidth, vh = innerHeight;
  const r = (el) => el.getBoundingClientRect();
  const area = (b) => Math.max(0, b.width) * Math.max(0, b.height);
  const stages = [...document.querySelectorAll('.stages > .stage')].map(r);
  const drawn = [...document.querySelectorAll('.operator__box, .channel__line')].map(r);
  const union = drawn.reduce((u, b) => ({
    left: Math.min(u.left, b.left), top: Math.min(u.top, b.top),
    right: Math.max(u.right, b.right), bottom: Math.max(u.bottom, b.bottom),
  }), { left: 1e9, top: 1e9, right: -1e9, bottom: -1e9 });
  const stage = stages[0];
  const svg = document.querySelector('.scene__svg');
  const scale = svg ? svg.getScreenCTM().a : 0;
  const px = (sel) => Math.min(...[...document.querySelectorAll(sel)].map((t) =>
    parseFloat(getComputedStyle(t).fontSize) * scale));
  const canvas = document.querySelector('.scene__tokens');
  const overlays = [...document.querySelectorAll('.side-panel, .menu__list--open, .caption, .transport, .legend')]
    .filter((e) => e.offsetParent !== null).map((e) => ({ cls: e.className, b: r(e) }));
  const hits = [];
  for (const o of overlays) {
    for (const d of drawn) {
      const ix = Math.min(o.b.right, d.right) - Math.max(o.b.left, d.left);
      const iy = Math.min(o.b.bottom, d.bottom) - Math.max(o.b.top, d.top);
      if (ix > 1 && iy > 1) hits.push(o.cls);
    }
  }
  return {
    share: stages.reduce((s, b) => s + area(b), 0) / (vw * vh),
    shares: stages.map((b) => area(b) / (vw * vh)),
    fillW: stage ? (union.right - union.left) / stage.width : 0,
    fillH: stage ? (union.bottom - union.top) / stage.height : 0,
    opName: px('.operator__name'),
    laneName: px('.lane__name'),
    status: px('.lane__status'),
    // The live-state line (`offset (0, 5)`); Infinity when no lane has state yet.
    liveState: px('.lane__state'),
    record: canvas ? parseFloat(canvas.dataset.recordLabel) * scale : 0,
    hits: [...new Set(hits)],
    overflowX: document.documentElement.scrollWidth - vw,
  };
}

async function lessonNames(page) {
  return page.$$eval('#scenario-select option', (os) => os.map((o) => o.value));
}

async function checkLesson(page, name, size, lang) {
  note.at = { lesson: name, size: size.join('×'), lang };
  const m = await page.evaluate(measure);
  const where = `${name} ${size.join('×')} ${lang}`;
  if (m.share < 0.65) fail(`${where}: stage covers ${(m.share * 100).toFixed(1)} % (< 65 %)`);
  const fill = Math.max(m.fillW, m.fillH);
  if (fill < 0.9) fail(`${where}: drawing fills ${(m.fillW * 100).toFixed(0)} % × ${(m.fillH * 100).toFixed(0)} % of the stage (< 90 %)`);
  if (m.opName < 18) fail(`${where}: operator names ${m.opName.toFixed(1)} px (< 18)`);
  for (const [what, v] of [['subtask names', m.laneName], ['states', m.status], ['live state lines', m.liveState], ['record labels', m.record]]) {
    if (v < 14) fail(`${where}: ${what} ${v.toFixed(1)} px (< 14)`);
  }
  if (m.hits.length) fail(`${where}: ${m.hits.join(', ')} over the graph`);
  note('stage share', m.share, 'max');
  note('content fill', fill, 'max');
  note('operator name px', m.opName, 'max');
  note('subtask name px', m.laneName, 'max');
  note('state px', m.status, 'max');
  if (Number.isFinite(m.liveState)) note('live state line px', m.liveState, 'max');
  note('record label px', m.record, 'max');
  return m;
}

/** Open `open` (a function on the page), then the stage still shows the graph whole. */
async function checkOverlay(page, where, what) {
  await settle(page);
  const m = await page.evaluate(measure);
  if (m.share < 0.55) fail(`${where} with ${what}: stage ${(m.share * 100).toFixed(1)} % (< 55 %)`);
  if (m.hits.length) fail(`${where} with ${what}: ${m.hits.join(', ')} over the graph`);
  note.at = { ...note.at, with: what };
  note('stage share with an overlay', m.share, 'max');
  delete note.at.with;
}

/**
 * A panel under the stage (a comparison chart, the key-group strip): present,
 * not over an operator box or channel, inside the viewport, the stage still ≥ 55 %,
 * and every text in it ≥ 14 px as rendered.
 */
async function checkPanel(page, where, selector, what) {
  await settle(page);
  const m = await page.evaluate(measure);
  const p = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const b = el.getBoundingClientRect();
    const texts = [...el.querySelectorAll('text, span, figcaption, h2, p, button')]
      .filter((t) => t.getClientRects().length && !t.closest('.visually-hidden') && t.textContent.trim())
      .map((t) => parseFloat(getComputedStyle(t).fontSize));
    const stages = [...document.querySelectorAll('.stages > .stage')].map((s) => s.getBoundingClientRect());
    const over = stages.some((s) => Math.min(s.bottom, b.bottom) - Math.max(s.top, b.top) > 1
      && Math.min(s.right, b.right) - Math.max(s.left, b.left) > 1);
    return { minPx: Math.min(...texts), bottom: b.bottom, right: b.right, over, height: b.height };
  }, selector);
  if (!p) return fail(`${where}: ${what} (${selector}) is missing`);
  if (p.over) fail(`${where}: ${what} overlaps the stage`);
  if (p.bottom > await page.evaluate(() => innerHeight) + 1) fail(`${where}: ${what} runs below the viewport (${p.bottom.toFixed(0)} px)`);
  if (p.minPx < 14) fail(`${where}: ${what} has text at ${p.minPx.toFixed(1)} px (< 14)`);
  if (m.share < 0.55) fail(`${where} with ${what}: stage ${(m.share * 100).toFixed(1)} % (< 55 %)`);
  if (m.hits.length) fail(`${where} with ${what}: ${m.hits.join(', ')} over the graph`);
  note.at = { lesson: where, with: what };
  note('stage share with a chart', m.share, 'max');
  note('chart text px', p.minPx, 'max');
  delete note.at.with;
}

/** A pixel probe: the canvas paints a record in its epoch's palette colour. */
async function pixelProbe(page, where) {
  await page.goto(page.url().replace(/\?.*/, '') + `?lang=en&scenario=barrier-alignment&t=540`);
  await page.waitForSelector('.scene__tokens[data-probe]');
  await settle(page);
  const r = await page.evaluate(() => {
    const c = document.querySelector('.scene__tokens');
    const [x, y, hex] = c.dataset.probe.split(',');
    const dpr = devicePixelRatio || 1;
    const ctx = c.getContext('2d');
    const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    // A 3×3 patch: the pattern's ink may cover some pixels, not all.
    let best = 1e9;
    for (let dx = 0; dx < 3; dx++) for (let dy = 0; dy < 3; dy++) {
      const [pr, pg, pb] = ctx.getImageData(Math.round(+x * dpr) + dx, Math.round(+y * dpr) + dy, 1, 1).data;
      best = Math.min(best, Math.max(Math.abs(pr - want[0]), Math.abs(pg - want[1]), Math.abs(pb - want[2])));
    }
    return { hex, best };
  });
  if (r.best > 8) fail(`${where}: the canvas's record is not ${r.hex} (closest channel off by ${r.best})`);
}

const FIXTURE = require('path').join(__dirname, '..', 'tests', 'fixtures', 'flink-stats-unaligned-backpressure.json');

/** The Flink code tab: the Java legible on a projector, the real
 *  statistics beside the lab's once imported. The tab widens the drawer on
 *  purpose (code needs its lines), so the stage-share rule of the overlays
 *  does not apply to it. */
async function flinkTab(page, where) {
  await choose(page, 'unaligned-backpressure');
  await page.click('#tab-flink');
  await settle(page);
  const m = await page.evaluate(() => {
    const r = (e) => e.getBoundingClientRect();
    const code = document.querySelector('.java--job');
    const cfg = document.querySelector('#flink-checkpointing');
    const fs = parseFloat(getComputedStyle(code).fontSize);
    const hl = document.querySelectorAll('#flink-checkpointing .java__line--checkpointing').length;
    return {
      fs, hl,
      cols: r(code).width / (0.6 * fs),
      overflow: code.scrollWidth - code.clientWidth,
      cfgTop: r(cfg).top, vh: innerHeight,
      buttons: ['#flink-copy', '#flink-download', '#flink-command'].map((s) => !!document.querySelector(s)),
      pageOverflow: document.documentElement.scrollWidth - innerWidth,
    };
  });
  note.at = { lesson: 'unaligned-backpressure Flink tab', size: where, lang: '' };
  note('Flink code px', m.fs, 'max');
  note('Flink code columns', m.cols, 'max');
  if (m.fs < 14) fail(`${where} Flink tab: code ${m.fs.toFixed(1)} px (< 14)`);
  if (m.cols < 60) fail(`${where} Flink tab: code box ${m.cols.toFixed(0)} columns wide (< 60)`);
  if (m.overflow > 1) fail(`${where} Flink tab: the job's code scrolls sideways by ${m.overflow} px`);
  if (m.hl < 3) fail(`${where} Flink tab: ${m.hl} highlighted CheckpointConfig lines (< 3)`);
  if (m.buttons.includes(false)) fail(`${where} Flink tab: copy / download / command missing`);
  if (m.pageOverflow > 0) fail(`${where} Flink tab: the page scrolls sideways by ${m.pageOverflow} px`);
  // The real statistics: the recorded real run imported from its file.
  await page.setInputFiles('#real-file', FIXTURE);
  await page.waitForSelector('#real-real .real-row');
  await settle(page);
  const s = await page.evaluate(() => {
    const r = (e) => e.getBoundingClientRect();
    const lab = r(document.querySelector('#real-lab')), real = r(document.querySelector('#real-real'));
    const field = document.querySelector('#real-real .hist__fields');
    const overlap = Math.min(lab.right, real.right) - Math.max(lab.left, real.left) > 1
      && Math.min(lab.bottom, real.bottom) - Math.max(lab.top, real.top) > 1;
    return {
      rows: document.querySelectorAll('#real-real .real-row').length,
      sideBySide: Math.abs(lab.top - real.top) < 2, overlap,
      fs: parseFloat(getComputedStyle(field).fontSize),
      pageOverflow: document.documentElement.scrollWidth - innerWidth,
    };
  });
  note('real statistics px', s.fs, 'max');
  if (s.rows !== 7) fail(`${where} real statistics: ${s.rows} rows (the recorded run has 7)`);
  if (s.overlap) fail(`${where} real statistics: the lab and real panes overlap`);
  if (!s.sideBySide && where.startsWith('1280')) fail(`${where} real statistics: the panes are not side by side`);
  if (s.fs < 13) fail(`${where} real statistics: fields ${s.fs.toFixed(1)} px (< 13)`);
  if (s.pageOverflow > 0) fail(`${where} real statistics: the page scrolls sideways by ${s.pageOverflow} px`);
  await page.click('#drawer-close');
  await settle(page);
}

async function keyMap(page, where) {
  // A mouse click on a side tab: focus goes into its panel, → steps the simulation.
  await choose(page, 'odd-even-sum');
  const step = () => page.$eval('#clock', (c) => +c.dataset.step);
  const before = await step();
  await page.click('#tab-storage');
  await settle(page);
  const focusIn = await page.evaluate(() => document.activeElement?.closest('[role=tabpanel]')?.id);
  if (focusIn !== 'tabpanel-storage') fail(`${where}: after a click on a tab the focus is on ${focusIn}, not its panel`);
  await page.keyboard.press('ArrowRight');
  await settle(page);
  if (!(await step() > before)) fail(`${where}: → after a tab click did not step`);
  // A keyboard user in the tab list: arrows move between tabs.
  await page.focus('#tab-storage');
  await page.keyboard.press('ArrowDown');
  await settle(page);
  const selected = await page.$eval('[role=tab][aria-selected=true]', (t) => t.dataset.tab);
  if (selected !== 'sink') fail(`${where}: ↓ in the tab list selected ${selected}, not sink`);
  await page.click('#drawer-close');
  await settle(page);
  // PageDown: the next key moment, named in the caption.
  await page.click('.scene-box', { position: { x: 5, y: 5 } });
  const at = await step();
  await page.keyboard.press('PageDown');
  await settle(page);
  const moment = await page.$eval('#live-narration', (c) => c.dataset.moment || '');
  if (!(await step() > at) || !moment) fail(`${where}: PageDown did not reach a key moment (caption: ${moment})`);
  // The caption is the latest narrated sentence (the narration tab's newest).
  await page.click('#tab-narration');
  await settle(page);
  const [caption, latest] = await page.evaluate(() => [
    document.querySelector('#live-narration .caption__text').textContent.trim(),
    document.querySelector('.narration__item--latest span:last-child')?.textContent.trim(),
  ]);
  if (caption !== latest) fail(`${where}: caption "${caption}" is not the latest narration "${latest}"`);
  const regions = await page.$$eval('[aria-live]:not([aria-live=off])', (e) => e.map((x) => x.id || x.className));
  const narrationRegions = regions.filter((r) => /narration/.test(r));
  if (narrationRegions.length !== 1) fail(`${where}: narration live regions: ${narrationRegions}`);
  await page.click('#drawer-close');
  await settle(page);
}

(async () => {
  const base = process.argv[2];
  const started = Date.now();
  const browser = await launch();
  let names = [];
  for (const size of SIZES) {
    for (const lang of langsAt(size)) {
      const page = await browser.newPage({ viewport: { width: size[0], height: size[1] } });
      await page.goto(`${base}/?lang=${lang}`);
      await page.waitForSelector('.operator__name');
      names = await lessonNames(page);
      const where = `${size.join('×')} ${lang}`;
      for (const name of names) {
        await choose(page, name);
        const normal = await checkLesson(page, name, size, lang);
        note.at = { lesson: name, size: size.join('×'), lang };
        // Projector mode: the same lesson, operator names ≥ 15 % larger where
        // the graph is bounded by the stage's width; where its height bounds it,
        // the lanes grow to hold their larger rows (no border through text), so
        // the names gain less — never under 5 %.
        await page.click('#projector-button');
        await settle(page);
        const big = (await page.evaluate(measure)).opName;
        const heightBound = await page.$eval('.scene', (s) => s.dataset.bound === 'height');
        const least = heightBound ? 1.05 : 1.15;
        note(heightBound ? 'A⁺ operator-name gain (height-bound)' : 'A⁺ operator-name gain', big / normal.opName, 'max');
        if (big < least * normal.opName) fail(`${name} ${where}: A⁺ operator names ${normal.opName.toFixed(1)} → ${big.toFixed(1)} px (< +${Math.round((least - 1) * 100)} %)`);
        await page.click('#projector-button');
        // The tour (its card in the side panel's drawer).
        if (await page.$('#tour-start')) {
          await page.click('#tour-start');
          await checkOverlay(page, `${name} ${where}`, 'the tour');
          await page.click('#tour-exit');
          if (await page.$('#drawer-close')) await page.click('#drawer-close');
          await settle(page);
        }
      }
      // A tour step with its answer open (the longest card).
      await choose(page, 'savepoint-upgrade');
      await openTourAnswer(page);
      await checkOverlay(page, `savepoint-upgrade ${where}`, 'a tour answer');
      await page.click('#tour-exit');
      if (await page.$('#drawer-close')) await page.click('#drawer-close');
      // The glossary and the editor (from the menu), the task state, a pair.
      await choose(page, 'exactly-once-kafka');
      for (const [id, what] of [['#glossary-button', 'the glossary'], ['#editor-button', 'the editor']]) {
        await page.click('#more-button');
        await page.click(id);
        await checkOverlay(page, `exactly-once-kafka ${where}`, what);
        await page.click('#drawer-close');
      }
      await page.click('[data-task="count#0"]');
      await checkOverlay(page, `exactly-once-kafka ${where}`, 'a subtask\'s state');
      await page.click('#drawer-close');
      await choose(page, 'state-backend-rocksdb');
      await page.click('#more-button');
      await page.click('#compare-state-backend-hashmap');
      await settle(page);
      // The comparison chart opens with the pair: checked, then
      // closed for the twin stages' own share.
      await checkPanel(page, `state-backend-rocksdb compare ${where}`, '#compare-chart', 'the comparison chart');
      await page.click('#chart-toggle');
      await settle(page);
      const twin = await page.evaluate(measure);
      note.at = { lesson: 'state-backend-rocksdb twin', size: size.join('×'), lang };
      note('twin stages together', twin.share, 'max');
      note('twin stage each', Math.min(...twin.shares), 'max');
      if (twin.share < 0.65 || Math.min(...twin.shares) < 0.3) {
        fail(`compare ${where}: stages ${twin.shares.map((s) => (s * 100).toFixed(1)).join(' + ')} %`);
      }
      if (twin.hits.length) fail(`compare ${where}: ${twin.hits.join(', ')} over the graph`);
      await page.click('#compare-stop');
      // The other pairs' charts and the twin view's aligned vs unaligned.
      for (const [lesson, partner] of [['restart-fixed-delay', 'restart-none'],
        ['checkpoint-config', 'checkpoint-config-strict'],
        ['jobmanager-crash-jobmanager', 'jobmanager-crash-filesystem']]) {
        await choose(page, lesson);
        await page.click('#more-button');
        await page.click(`#compare-${partner}`);
        await settle(page);
        if (!(await page.$('#compare-chart'))) await page.click('#chart-toggle');
        await checkPanel(page, `${lesson} compare ${where}`, '#compare-chart', 'the comparison chart');
        await page.click('#compare-stop');
        await settle(page);
      }
      await choose(page, 'unaligned-backpressure');
      await page.click('#twin-button');
      await settle(page);
      if (!(await page.$('#compare-chart'))) await page.click('#chart-toggle');
      await checkPanel(page, `unaligned-backpressure twin ${where}`, '#compare-chart', 'the alignment chart');
      await page.click('#twin-button');
      // The key-group strip of savepoint-rescale.
      await choose(page, 'savepoint-rescale');
      await page.click('#strip-toggle');
      await checkPanel(page, `savepoint-rescale ${where}`, '#key-group-strips', 'the key-group strip');
      await page.click('#strip-toggle');
      await settle(page);
      await keyMap(page, where);
      await flinkTab(page, where);
      await pixelProbe(page, where);
      await page.close();
    }
  }
  // A phone: no sideways scroll, in any lesson.
  for (const lang of LANGS) {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(`${base}/?lang=${lang}`);
    await page.waitForSelector('.operator__name');
    for (const name of names) {
      await choose(page, name);
      const over = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      if (over > 0) fail(`${name} 390 px ${lang}: ${over} px of horizontal overflow`);
    }
    const small = await page.$$eval('button, select, [role=tab], .toggle', (els) => els
      .filter((e) => e.offsetParent !== null && !e.closest('.scene, .scrubber__markers, .menu__list:not(.menu__list--open)'))
      .map((e) => ({ id: e.id || e.className, h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width }))
      .filter((b) => Math.min(b.h, b.w) < 44));
    if (small.length) fail(`390 px ${lang}: touch targets under 44 px: ${small.map((b) => `${b.id} ${b.w.toFixed(0)}×${b.h.toFixed(0)}`).join(', ')}`);
    await page.close();
  }
  await browser.close();
  console.log('worst case per measure:');
  for (const [k, v] of Object.entries(worst)) {
    const { value, ...at } = v;
    const shown = k.includes('px') ? value.toFixed(1) + ' px' : k.includes('columns') ? value.toFixed(0) + ' col' : k.includes('gain') ? '×' + value.toFixed(2) : (value * 100).toFixed(1) + ' %';
    console.log(`  ${k.padEnd(28)} ${shown.padStart(9)}  (${Object.values(at).join(', ')})`);
  }
  console.log(`${names.length} lessons; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (failures.length) {
    console.error(`\n${failures.length} geometry failure(s):\n  ` + failures.join('\n  '));
    process.exit(1);
  }
  console.log('geometry: all good');
})().catch((e) => { console.error(e); process.exit(1); });
