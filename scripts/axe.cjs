// Accessibility audit of the built page with axe-core: the first
// screen, a guided tour open (its answer shown), projector mode, the Flink
// code tab with real statistics imported, a comparison chart, the key-group
// strip, the QR dialog and the interview drill, in zh and en at 1280×720; and a
// phone (390×844, touch) with the tour's sheet open. Fails on any serious or
// critical violation; prints every violation it finds with its nodes.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/axe.cjs <base-url>
// (scripts/axe.sh serves the build).
const { launch, settle: wait, openTourAnswer, PHONES, phonePage } = require('./chromium.cjs');
const AXE = require.resolve('axe-core/axe.min.js');
const FIXTURE = require('path').join(__dirname, '..', 'tests', 'fixtures', 'flink-stats-unaligned-backpressure.json');

const settle = (page) => wait(page, 80);

const SCREENS = {
  'first screen': { query: '' },
  'a tour open': {
    query: 'scenario=barrier-alignment',
    act: openTourAnswer,
  },
  'projector mode': { query: 'scenario=barrier-alignment&t=540&projector=1' },
  'the Flink code tab, real statistics imported': {
    query: 'scenario=unaligned-backpressure&tab=flink',
    act: async (page) => {
      await page.setInputFiles('#real-file', FIXTURE);
      await page.waitForSelector('#real-real .real-row');
      await page.click('#flink-whole summary');
    },
  },
  // The lesson extras: a comparison chart, the key-group strip, the QR dialog.
  'a comparison chart': {
    query: 'scenario=restart-fixed-delay&t=3000',
    async act(page) {
      await page.click('#more-button');
      await page.click('#compare-restart-none');
    },
  },
  'the key-group strip': { query: 'scenario=savepoint-rescale&t=1700&strips=1' },
  // The tour as a phone's bottom sheet, its answer shown.
  'a tour open on a phone': {
    query: 'scenario=barrier-alignment',
    phone: PHONES[1],
    act: openTourAnswer,
  },
  // The interview drill: an open question with its answer and callout, and an
  // exercise answered (the result and the chips' pressed states).
  'the interview drill': {
    query: 'drill=1',
    async act(page) {
      await page.click('.drill-item[data-id="q37"]');
      await page.click('.drill-q__reveal');
      await page.waitForSelector('.drill-chip');
      await page.click('.drill-chip[data-value="1"]');
      await page.click('.drill-ex__check');
    },
  },
  'the QR code': {
    query: 'scenario=odd-even-sum&t=1200',
    async act(page) {
      await page.click('#more-button');
      await page.click('#qr-button');
    },
  },
};

(async () => {
  const base = process.argv[2];
  const browser = await launch();
  let serious = 0;
  for (const lang of ['zh', 'en']) {
    const desk = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    for (const [name, screen] of Object.entries(SCREENS)) {
      const page = screen.phone ? await phonePage(browser, screen.phone) : desk;
      await page.goto(`${base}/?lang=${lang}&${screen.query}`);
      await page.waitForSelector('.operator__name');
      await settle(page);
      if (screen.act) await screen.act(page);
      await settle(page);
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() => axe.run(document));
      const bad = result.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
      serious += bad.length;
      console.log(`${lang} ${name}: ${result.violations.length} violation(s), ${bad.length} serious or critical; ${result.passes.length} rules pass`);
      for (const v of result.violations) {
        console.log(`  [${v.impact}] ${v.id}: ${v.help}`);
        for (const n of v.nodes.slice(0, 4)) console.log(`      ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}`);
      }
      if (page !== desk) await page.close();
    }
    await desk.close();
  }
  await browser.close();
  if (serious) {
    console.error(`axe: ${serious} serious or critical violation(s)`);
    process.exit(1);
  }
  console.log('axe: no serious or critical violations');
})().catch((e) => { console.error(e); process.exit(1); });
