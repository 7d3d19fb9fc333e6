// Text sizes as the back row sees them: every text on the screen of the built
// page, measured as rendered (an HTML text's computed font size; an SVG text's
// font size times the SVG's scale on screen; a canvas label's box height times
// that scale), against the floors a projected classroom needs — 14 px at
// 1280×720, 18 px in projector mode (A⁺). Views: every lesson's stage at its
// first key moment, the twin view with and without its comparison chart, a
// lesson pair, and A⁺ (where it also measures the graph's share of the screen
// and the operator names' gain over the normal view).
//
// It reports, per view, the smallest text and every kind of text below the
// floor (by the element's class), and exits 1 when anything is below its floor.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/text-floors.cjs <base-url>
// (scripts/text-floors.sh serves the build). FLOORS_LANGS=zh,en (default zh);
// FLOORS_LESSONS=a,b to narrow the lessons.
const { launch, settle: wait, textSizes: texts } = require('./chromium.cjs');

const LANGS = (process.env.FLOORS_LANGS || 'zh').split(',');
const FLOOR = 14;
const FLOOR_BIG = 18;
const settle = (page) => wait(page, 80);
const below = [];
const mins = [];

async function choose(page, name) {
  await page.selectOption('#scenario-select', name);
  await page.waitForFunction((n) => document.querySelector(`.stage[data-scenario="${n}"]`), name);
  await settle(page);
}

/** The graph's share of the screen and the operator names' size. */
function graph() {
  const svg = document.querySelector('.scene__svg');
  const drawn = [...document.querySelectorAll('.operator__box, .channel__line')].map((e) => e.getBoundingClientRect());
  if (!drawn.length) return { share: 0, opName: 0 };
  const u = drawn.reduce((u, b) => ({
    left: Math.min(u.left, b.left), top: Math.min(u.top, b.top),
    right: Math.max(u.right, b.right), bottom: Math.max(u.bottom, b.bottom),
  }), { left: 1e9, top: 1e9, right: -1e9, bottom: -1e9 });
  const scale = svg ? svg.getScreenCTM().a : 0;
  const names = [...document.querySelectorAll('.operator__name')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return {
    share: ((u.right - u.left) * (u.bottom - u.top)) / (innerWidth * innerHeight),
    opName: names.length ? Math.min(...names) : 0,
  };
}

async function record(page, view, floor) {
  const all = await page.evaluate(texts);
  const small = all.filter((t) => t.px < floor - 0.05);
  const min = all.length ? Math.min(...all.map((t) => t.px)) : 0;
  mins.push({ view, min, count: all.length, below: small.length });
  const byKind = {};
  for (const t of small) {
    const k = byKind[t.kind] || (byKind[t.kind] = { n: 0, px: 1e9, text: t.text });
    k.n += 1;
    if (t.px < k.px) { k.px = t.px; k.text = t.text; }
  }
  for (const [k, v] of Object.entries(byKind)) below.push({ view, kind: k, ...v });
  return { min, small: small.length };
}

(async () => {
  const base = process.argv[2];
  const browser = await launch();
  for (const lang of LANGS) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${base}/?lang=${lang}`);
    await page.waitForSelector('.stage[data-scenario]');
    await settle(page);
    const all = await page.$$eval('#scenario-select option', (os) => os.map((o) => o.value));
    const lessons = process.env.FLOORS_LESSONS ? process.env.FLOORS_LESSONS.split(',') : all;
    for (const lesson of lessons) {
      await choose(page, lesson);
      await page.keyboard.press('PageDown');
      await settle(page);
      await record(page, `${lesson} ${lang}`, FLOOR);
      const normal = await page.evaluate(graph);
      await page.click('#projector-button');
      await settle(page);
      await record(page, `${lesson} ${lang} A+`, FLOOR_BIG);
      const big = await page.evaluate(graph);
      const gain = normal.opName ? big.opName / normal.opName : 0;
      if (big.share < 0.6) below.push({ view: `${lesson} ${lang} A+`, kind: `graph ${(big.share * 100).toFixed(0)} % of the screen (< 60 %)`, n: 1, px: 0, text: '' });
      if (gain < 1.25) below.push({ view: `${lesson} ${lang} A+`, kind: `operator names ×${gain.toFixed(2)} (< ×1.25)`, n: 1, px: big.opName, text: '' });
      await page.click('#projector-button');
      await settle(page);
    }
    // The twin view (aligned beside unaligned), with its chart and without.
    await choose(page, 'unaligned-backpressure');
    await page.click('#twin-button');
    await settle(page);
    await page.keyboard.press('PageDown');
    await settle(page);
    if (await page.$('#compare-chart')) await page.click('#chart-toggle');
    await settle(page);
    await record(page, `twin view ${lang}`, FLOOR);
    await page.click('#chart-toggle');
    await settle(page);
    await record(page, `twin view + chart ${lang}`, FLOOR);
    await page.click('#twin-button');
    await settle(page);
    // A lesson pair.
    await choose(page, 'state-backend-rocksdb');
    await page.click('#more-button');
    await page.click('#compare-state-backend-hashmap');
    await settle(page);
    await record(page, `lesson pair (+ chart) ${lang}`, FLOOR);
    await page.click('#compare-stop');
    await page.close();
  }
  await browser.close();
  for (const m of mins) console.log(`${m.view.padEnd(46)} smallest ${m.min.toFixed(1)} px over ${m.count} texts; ${m.below} below the floor`);
  if (below.length) {
    console.error(`\n${below.length} kind(s) of text below the floor:`);
    for (const b of below) console.error(`  ${b.view}: ${b.kind} ×${b.n}, ${b.px.toFixed(1)} px${b.text ? ` ("${b.text}")` : ''}`);
    const views = new Set(below.map((b) => b.view)).size;
    console.error(`text floors: ${views} of ${mins.length} views below the floor`);
    process.exit(1);
  }
  console.log(`text floors: every text in ${mins.length} views at least ${FLOOR} px (${FLOOR_BIG} px in A+)`);
})().catch((e) => { console.error(e); process.exit(1); });
