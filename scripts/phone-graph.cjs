// The job graph on a phone: every built-in lesson on the built page, with touch
// emulation (isMobile, hasTouch, device scale 3) at 360×740 and 390×844, zh and
// en, at its start and at two of its key moments. At each it reads what
// Chromium rendered and fails on
//   - a graph that does not run top to bottom (the stage without .stage--down,
//     or an operator below one it reads from… read as boxes: each row's boxes
//     below the previous row's);
//   - an operator or subtask box outside the screen's width, or outside the
//     stage (which clips: a stage shorter than its graph hides the lower rows);
//   - sideways scrolling: of the document, or of any scroller on the page;
//   - a text of the stage rendered under 12 CSS px (SVG text: its font size
//     times the SVG's scale; HTML text: its computed size);
//   - two texts of the stage overprinting, a box's border through a text, a text
//     outside the stage, canvas labels over each other or over text (the
//     key-moment audit's checks, chromium.cjs's stageAudit, over the whole
//     stage: a phone's stage is taller than its screen).
// A failing moment's screenshot goes to $SHOTS (default /tmp/phone-graph).
//
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/phone-graph.cjs <base-url>
//   LESSONS=a,b to check some lessons. scripts/phone.sh serves the page. Exit 1 on failure.
const fs = require('fs');
const path = require('path');
const { launch, settle, stageAudit, lessonsOf, chooseLesson } = require('./chromium.cjs');

const BASE = process.argv[2];
const SHOTS = process.env.SHOTS || '/tmp/phone-graph';
const PHONES = [{ w: 360, h: 740 }, { w: 390, h: 844 }];
const LANGS = ['zh', 'en'];
// Traditional at 390 px only: its texts are the Simplified ones converted.
const langsAt = (phone) => (phone.w === 390 ? [...LANGS, 'zh-Hant'] : LANGS);
const MIN_PX = 12;
const KNOWN_CROWDED = ['busy-network'];
if (!BASE) {
  console.error('usage: node scripts/phone-graph.cjs <base-url>');
  process.exit(2);
}

// The phone's own checks (runs in the page).
function phoneChecks(minPx) {
  const issues = [];
  const stage = document.querySelector('.stage');
  if (!stage || !stage.classList.contains('stage--down')) issues.push('layout: the graph does not run top to bottom (no .stage--down)');
  const vw = document.documentElement.clientWidth;
  const boxes = [...document.querySelectorAll('.stage .operator__box, .stage .lane__rect')];
  if (!boxes.length) issues.push('layout: no operator drawn');
  for (const r of boxes) {
    const b = r.getBoundingClientRect();
    if (b.left < -0.5 || b.right > vw + 0.5) {
      const g = r.closest('[data-op], [data-lane]');
      const name = g ? g.dataset.op || g.dataset.lane : '?';
      issues.push(`width: ${name} spans ${b.left.toFixed(0)}–${b.right.toFixed(0)} px of ${vw}`);
    }
  }
  // The stage shows the graph whole: it clips what overflows it, so a stage
  // shorter than its scene hides the lower rows (the page cannot scroll to them).
  if (stage) {
    const s = stage.getBoundingClientRect();
    const scene = stage.querySelector('.scene');
    if (scene && scene.getBoundingClientRect().bottom > s.bottom + 0.5) {
      issues.push(`height: the stage (${s.height.toFixed(0)} px) cuts the graph (${scene.getBoundingClientRect().height.toFixed(0)} px)`);
    }
    for (const r of boxes) {
      const b = r.getBoundingClientRect();
      if (b.top < s.top - 0.5 || b.bottom > s.bottom + 0.5) {
        const g = r.closest('[data-op], [data-lane]');
        issues.push(`height: ${g ? g.dataset.op || g.dataset.lane : '?'} lies outside the stage`);
        break;
      }
    }
  }
  // Rows: sources at the top, sinks at the bottom — the operators' boxes form
  // rows, each wholly below the one before (operators of one row share a top).
  const ops = [...document.querySelectorAll('.stage .operator__box')].map((r) => r.getBoundingClientRect());
  const tops = [...new Set(ops.map((b) => Math.round(b.top)))].sort((a, b) => a - b);
  for (let i = 1; i < tops.length; i++) {
    const above = ops.filter((b) => Math.round(b.top) === tops[i - 1]);
    const below = ops.filter((b) => Math.round(b.top) === tops[i]);
    if (Math.max(...above.map((b) => b.bottom)) > Math.min(...below.map((b) => b.top))) {
      issues.push('layout: two rows of operators overlap');
    }
  }
  const over = document.documentElement.scrollWidth - innerWidth;
  if (over > 0) issues.push(`scroll: the page scrolls sideways by ${over} px`);
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if ((cs.overflowX === 'auto' || cs.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      const id = el.id ? `#${el.id}` : `.${String(el.className).split(' ')[0]}`;
      issues.push(`scroll: ${id} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
    }
  }
  // Text sizes as rendered: the stage's SVG text at the SVG's scale, its HTML text.
  const svg = stage && stage.querySelector('svg.scene__svg');
  const scale = svg ? svg.getScreenCTM().a : 1;
  let smallest = Infinity;
  for (const t of stage ? stage.querySelectorAll('svg text') : []) {
    if (!t.textContent.trim() || t.getBoundingClientRect().width < 1) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * scale;
    smallest = Math.min(smallest, px);
    if (px < minPx - 0.05) issues.push(`text: "${t.textContent.trim().slice(0, 30)}" at ${px.toFixed(1)} px`);
  }
  const walker = document.createTreeWalker(stage || document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || el.closest('svg') || el.closest('.visually-hidden')) continue;
    if (!el.getClientRects().length) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    smallest = Math.min(smallest, px);
    if (px < minPx - 0.05) issues.push(`text: "${n.textContent.trim().slice(0, 30)}" at ${px.toFixed(1)} px`);
  }
  return { issues, smallest };
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  const failing = [];
  let moments = 0;
  let smallest = Infinity;
  let known = 0;
  const started = Date.now();
  for (const phone of PHONES) {
    for (const lang of langsAt(phone)) {
      const where = `${phone.w}x${phone.h} ${lang}`;
      const page = await browser.newPage({
        viewport: { width: phone.w, height: phone.h },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 3,
      });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${BASE}/?lang=${lang}`);
      await page.waitForSelector('#scenario-select option[value]', { state: 'attached' });
      await page.waitForSelector('.stage[data-now]', { state: 'attached' });
      let lessons = await lessonsOf(page);
      if (process.env.LESSONS) lessons = lessons.filter((l) => process.env.LESSONS.split(',').includes(l));
      for (const lesson of lessons) {
        await chooseLesson(page, lesson);
        // Its start, its first key moment and its third (barriers on the
        // channels, notes on the lanes, chips on their way).
        for (const presses of [0, 1, 2]) {
          for (let k = 0; k < presses; k++) {
            await page.keyboard.press('PageDown');
          }
          await settle(page, 60);
          const seen = await page.evaluate(stageAudit, { wholeStage: true, markers: false });
          const own = await page.evaluate(phoneChecks, MIN_PX);
          moments++;
          smallest = Math.min(smallest, own.smallest);
          let defects = [...new Set([...(seen ? seen.issues : ['no stage']), ...own.issues])];
          // busy-network's eight crossing channels between four and two
          // subtasks side by side leave a few canvas labels (+N, tags) no free
          // spot at a phone's width; the placement pass reports them, and its
          // unit test bounds them. Counted, not failed.
          if (KNOWN_CROWDED.includes(lesson)) {
            const crowded = defects.filter((d) => /canvas labels/.test(d));
            known += crowded.length;
            defects = defects.filter((d) => !crowded.includes(d));
          }
          if (defects.length) {
            const now = seen ? seen.now : 0;
            failing.push({ where, lesson, now, defects });
            await page.screenshot({ path: path.join(SHOTS, `${lesson}-${phone.w}x${phone.h}-${lang}-${now}.png`), fullPage: true });
          }
        }
      }
      if (errors.length) failing.push({ where, lesson: '(page)', now: 0, defects: errors.map((e) => `page error: ${e}`) });
      await page.close();
    }
  }
  await browser.close();
  for (const f of failing) {
    console.log(`${f.lesson} @ ${f.now} ms, ${f.where}:`);
    for (const d of f.defects.slice(0, 6)) console.log(`    ${d}`);
    if (f.defects.length > 6) console.log(`    … and ${f.defects.length - 6} more`);
  }
  console.log(`phone graph: ${moments} moments checked at 360x740 and 390x844, zh and en ` +
    `(smallest stage text ${smallest.toFixed(1)} px), ${failing.length} with a defect ` +
    `(and ${known} moments of ${KNOWN_CROWDED.join(', ')} with crowded canvas labels) ` +
    `in ${Math.round((Date.now() - started) / 1000)} s` + (failing.length ? `; screenshots in ${SHOTS}` : ''));
  if (moments < 40 && !process.env.LESSONS) {
    console.log('phone graph: too few moments reached');
    process.exit(1);
  }
  if (failing.length) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
