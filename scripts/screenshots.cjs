// Screenshots for a projector check: the barrier-alignment moment
// (records 3, 2, 1 held behind the lock), an unaligned checkpoint's barrier
// overtaking persisted records, a tour step with its answer open, and
// projector mode (A⁺), the Flink code tab and real statistics imported, at 1280×720, 1024×768, 1920×1080 and 390×844, zh and en.
// Look at every one as a teacher would.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/screenshots.cjs <base-url> <out-dir>
// (scripts/screenshots.sh serves the build and picks the tools).
const { launch, settle: wait, openTourAnswer } = require('./chromium.cjs');

const SIZES = [[1280, 720], [1024, 768], [1920, 1080], [390, 844]];
const FIXTURE = require('path').join(__dirname, '..', 'tests', 'fixtures', 'flink-stats-unaligned-backpressure.json');
// `ONLY=chart-,qr` takes only the shots whose names start so.
const ONLY = (process.env.ONLY || '').split(',').filter(Boolean);
const LANGS = ['zh', 'en'];

const settle = (page) => wait(page, 120);

const SHOTS = {
  // Checkpoint 1's numbers barrier arrived at 505 ms; 1, 2, 3 wait until 550.
  'barrier-alignment': { query: 'scenario=barrier-alignment&t=540' },
  // Checkpoint 1's unaligned barriers overtake the queued records (from 1005 ms):
  // step to the first moment a channel's overtaken records are being persisted.
  unaligned: {
    query: 'scenario=unaligned-backpressure&t=1000',
    async act(page) {
      for (let i = 0; i < 400 && !(await page.$('.channel--persisting')); i++) {
        await page.click('#step-forward');
      }
    },
  },
  // The barrier-alignment tour's prediction ("what will merge do with 1, 2, 3?"), answered.
  'tour-answer': {
    query: 'scenario=barrier-alignment',
    act: openTourAnswer,
  },
  projector: { query: 'scenario=barrier-alignment&t=540&projector=1' },
  // The Flink code tab: the lesson as a Flink job, CheckpointConfig lines first.
  'flink-code': { query: 'scenario=odd-even-sum&tab=flink' },
  // The recorded real run's statistics imported beside the lab's history (a
  // checkpoint's subtasks open on the real side).
  'flink-stats': {
    query: 'scenario=unaligned-backpressure&t=3000&tab=flink',
    async act(page) {
      await page.setInputFiles('#real-file', FIXTURE);
      await page.waitForSelector('#real-real .real-row');
      await page.$eval('#real-real .real-row details', (d) => { d.open = true; });
      await page.$eval('#real-heading', (h) => h.scrollIntoView());
    },
  },
  // The lesson extras: each lesson pair's chart, the twin view's alignment
  // chart, the savepoint-rescale key-group strip, the QR code.
  'chart-backends': { query: 'scenario=state-backend-rocksdb&t=7500', act: pair('state-backend-hashmap') },
  'chart-restarts': { query: 'scenario=restart-fixed-delay&t=3400', act: pair('restart-none') },
  'chart-tolerable': { query: 'scenario=checkpoint-config&t=3000', act: pair('checkpoint-config-strict') },
  'chart-storage': { query: 'scenario=jobmanager-crash-jobmanager&t=4700', act: pair('jobmanager-crash-filesystem') },
  'chart-alignment': { query: 'scenario=unaligned-backpressure&t=4500&twin=1' },
  'rescale-strip': { query: 'scenario=savepoint-rescale&t=1700&strips=1' },
  // The restored job's first checkpoint in the storage tab: pv's key-group range per
  // subtask (0–42, 43–85, 86–127) beside its values, as `lab run --metadata --key-groups`.
  'rescale-storage': { query: 'scenario=savepoint-rescale&t=2100&tab=storage' },
  // Flink's task states (FAILED, CANCELED, restarting): the restart delay of
  // restart-fixed-delay (sum#0 failed at 500 ms, the others canceled, restart at
  // 700), the JobManager crash of the storage pair (3500 ms) with the history and
  // the storage tab, and odd-even-sum's live state lines at chk-1.
  'ts-restart-delay': { query: 'scenario=restart-fixed-delay&t=600' },
  'ts-jm-memory-history': { query: 'scenario=jobmanager-crash-jobmanager&t=3700&tab=coordinator' },
  'ts-jm-memory-storage': { query: 'scenario=jobmanager-crash-jobmanager&t=3700&tab=storage' },
  'ts-jm-files-storage': { query: 'scenario=jobmanager-crash-filesystem&t=3700&tab=storage' },
  'ts-odd-even-state': { query: 'scenario=odd-even-sum&t=560' },
  // The slide export (⋯ → Save as PNG) of the JobManager crash, strip included:
  // the downloaded PNG is saved beside the screenshot as <name>-slide.png.
  'ts-slide': {
    query: 'scenario=jobmanager-crash-jobmanager&t=3700',
    async act(page, file) {
      await page.click('#more-button');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#slide-png')]);
      await download.saveAs(file.replace(/\.png$/, '-slide.png'));
    },
  },
  qr: {
    query: 'scenario=odd-even-sum&t=1200',
    async act(page) {
      await page.click('#more-button');
      await page.click('#qr-button');
    },
  },
};

/** Opens the lesson pair `partner` from the tools menu. */
function pair(partner) {
  return async (page) => {
    await page.click('#more-button');
    await page.click(`#compare-${partner}`);
  };
}

(async () => {
  const [base, out] = [process.argv[2], process.argv[3] || '.'];
  const browser = await launch();
  for (const [w, h] of SIZES) {
    for (const lang of LANGS) {
      const phone = w < 600;
      const page = await browser.newPage({
        viewport: { width: w, height: h }, isMobile: phone, hasTouch: phone,
      });
      for (const [name, shot] of Object.entries(SHOTS)) {
        if (ONLY.length && !ONLY.some((o) => name.startsWith(o))) continue;
        await page.goto(`${base}/?lang=${lang}&${shot.query}`);
        await page.waitForSelector('.operator__name');
        await settle(page);
        const file = `${out}/${name}-${w}x${h}-${lang}.png`;
        if (shot.act) await shot.act(page, file);
        await settle(page);
        await page.screenshot({ path: file, fullPage: phone });
      }
      await page.close();
    }
  }
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
