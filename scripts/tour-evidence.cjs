// The guided tours keep their evidence on screen. For every step of every
// lesson's tour at 1280×720 and 1024×768, in zh and en, it asserts that, without
// scrolling the page:
//   - the step's text, and for a step that asks a question, the question and its
//     "show the answer" button, then (after a click) the answer, are inside the
//     viewport and not cut off by a scrolling box (the card's own scroll may
//     bring them into view, as the page does; the window never scrolls);
//   - the element the step points at (a subtask, a channel, a side-panel tab) is
//     inside the viewport and on top at its centre — not under the tour card or
//     another panel; a highlighted tab's panel is the one shown;
//   - the panel row the step talks about (its highlight's `row`: chk-1 in the
//     storage list, T3 in the sink's, the read_committed list …), read from the
//     highlight stylesheet's second rule, is itself on screen: its first lines
//     inside the viewport and inside its panel's scrolling box, and on top;
//   - the card never covers an operator box of the stage.
// The selector of the step's target is read from the highlight stylesheet the
// page writes for the step, so the check follows what the page highlights.
//
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/tour-evidence.cjs <base-url>
//   LESSONS=a,b to check some lessons, CONFIGS=0,2 some of the sizes above (by index). scripts/tour-evidence.sh serves the build.
// Failing steps are screenshotted to $SHOTS (default /tmp/tour-evidence). Exit 1
// on failure.
const fs = require('fs');
const path = require('path');
const { launch, settle: wait } = require('./chromium.cjs');

const BASE = process.argv[2];
const SHOTS = process.env.SHOTS || '/tmp/tour-evidence';
const ALL_CONFIGS = [
  { w: 1280, h: 720, lang: 'zh' },
  { w: 1280, h: 720, lang: 'en' },
  { w: 1024, h: 768, lang: 'zh' },
  { w: 1024, h: 768, lang: 'en' },
  // Traditional at the tightest size only (its texts are the Simplified ones converted).
  { w: 1024, h: 768, lang: 'zh-Hant' },
];
const CONFIGS = process.env.CONFIGS
  ? process.env.CONFIGS.split(',').map((i) => ALL_CONFIGS[+i])
  : ALL_CONFIGS;
if (!BASE) {
  console.error('usage: node scripts/tour-evidence.cjs <base-url>');
  process.exit(2);
}
const settle = (page) => wait(page, 60);

// Runs in the page: where each piece of the step's evidence is, and whether the
// reader can see it without scrolling the window.
function evidence() {
  const vw = innerWidth;
  const vh = innerHeight;
  const problems = [];
  // Inside the viewport and inside every clipping ancestor (a scrolling card).
  const shown = (el, what) => {
    if (!el) return problems.push(`${what}: missing`);
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return problems.push(`${what}: not rendered`);
    const cut = (a, b) => a.top < b.top - 1 || a.bottom > b.bottom + 1 || a.left < b.left - 1 || a.right > b.right + 1;
    // A long text only needs its first lines on screen; a button must be whole.
    const box = { top: r.top, left: r.left, right: r.right, bottom: Math.min(r.bottom, r.top + 60) };
    if (cut(box, { top: 0, left: 0, right: vw, bottom: vh })) {
      return problems.push(`${what}: outside the viewport (${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)})`);
    }
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a);
      if (/(auto|scroll|hidden)/.test(o.overflowY + o.overflowX)) {
        if (cut(box, a.getBoundingClientRect())) return problems.push(`${what}: cut off by .${a.className.split(' ')[0]}`);
      }
    }
    return true;
  };
  const onTop = (el, what, selector) => {
    const r = el.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + r.width / 2, 1), vw - 2);
    const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 20), 1), vh - 2);
    const hit = document.elementFromPoint(x, y);
    // The subtask's own click target (its lane button) counts as the subtask.
    if (!hit || !(el.contains(hit) || hit.contains(el) || hit.closest(selector))) {
      problems.push(`${what}: covered by ${hit ? hit.tagName.toLowerCase() + '.' + String(hit.className.baseVal ?? hit.className).split(' ')[0] : 'nothing'}`);
    }
  };
  if (scrollY > 0 || document.scrollingElement.scrollTop > 0) problems.push(`the page scrolled by ${Math.round(scrollY)} px`);
  shown(document.querySelector('#tour-text'), 'step text');
  shown(document.querySelector('#tour-next'), 'next button');
  const ask = document.querySelector('#tour-reveal');
  if (ask) shown(ask, 'show-the-answer button');
  // The target, from the stylesheet the page writes for the step.
  const css = [...document.querySelectorAll('style')].map((s) => s.textContent)
    .find((t) => t.includes('--tour-highlight'));
  const selector = css ? css.split('{')[0].replace(/\s*\.channel__line\s*$/, '').trim() : null;
  let target = null;
  if (selector) {
    // A subtask or channel on the stage (the barrier bench reuses data-channel).
    target = document.querySelector(`.stage ${selector}`) || document.querySelector(selector);
    if (shown(target, `target ${selector}`) === true) onTop(target, `target ${selector}`, selector);
    const tab = selector.match(/^#tab-(\w+)$/);
    if (tab) {
      const panel = document.querySelector(`#tabpanel-${tab[1]}`);
      if (!panel || panel.hidden) problems.push(`the ${tab[1]} panel is not the one shown`);
      else shown(panel, `the ${tab[1]} panel`);
    }
  }
  // The panel row the step talks about: the stylesheet's second rule.
  const rowSelector = css ? (css.split('\n')[1] || '').split('{')[0].trim() : '';
  if (rowSelector) {
    const row = document.querySelector(rowSelector);
    if (shown(row, `row ${rowSelector}`) === true) onTop(row, `row ${rowSelector}`, rowSelector);
  }
  // The card never sits on an operator box.
  const card = document.querySelector('.tour-card');
  if (card) {
    const c = card.getBoundingClientRect();
    for (const op of document.querySelectorAll('.stage [data-operator], .stage .operator')) {
      const o = op.getBoundingClientRect();
      if (Math.min(c.right, o.right) - Math.max(c.left, o.left) > 2 && Math.min(c.bottom, o.bottom) - Math.max(c.top, o.top) > 2) {
        problems.push('the tour card covers an operator');
        break;
      }
    }
  }
  return { problems, hasAsk: !!ask, selector, row: !!rowSelector };
}

function answered() {
  const problems = [];
  const a = document.querySelector('#tour-answer');
  if (!a) return ['answer: missing after the click'];
  const r = a.getBoundingClientRect();
  if (r.top < -1 || r.top + Math.min(r.height, 40) > innerHeight + 1) problems.push(`answer: outside the viewport (top ${Math.round(r.top)})`);
  for (let p = a.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p);
    if (/(auto|scroll|hidden)/.test(o.overflowY)) {
      const b = p.getBoundingClientRect();
      if (r.top < b.top - 1 || r.top + Math.min(r.height, 40) > b.bottom + 1) problems.push(`answer: cut off by .${p.className.split(' ')[0]}`);
    }
  }
  if (scrollY > 0) problems.push(`the page scrolled by ${Math.round(scrollY)} px to show the answer`);
  return problems;
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  const failing = [];
  let steps = 0;
  let questions = 0;
  let targets = 0;
  let rows = 0;
  const started = Date.now();
  for (const cfg of CONFIGS) {
    const where = `${cfg.w}x${cfg.h} ${cfg.lang}`;
    const page = await browser.newPage({ viewport: { width: cfg.w, height: cfg.h } });
    await page.goto(`${BASE}/?lang=${cfg.lang}`);
    await page.waitForSelector('#scenario-select option[value]', { state: 'attached' });
    let lessons = await page.$$eval('#scenario-select option', (os) => os.map((o) => o.value).filter(Boolean));
    if (process.env.LESSONS) lessons = lessons.filter((l) => process.env.LESSONS.split(',').includes(l));
    for (const lesson of lessons) {
      await page.selectOption('#scenario-select', lesson);
      // The stage of that lesson (its data may still be on its way, the last
      // lesson's stage and tour on screen meanwhile).
      await page.waitForFunction((n) => document.querySelector('#scenario-select').value === n
        && document.querySelector(`.stage[data-now][data-scenario="${n}"]`), lesson);
      await settle(page);
      if (!(await page.$('#tour-start'))) continue;
      await page.click('#tour-start');
      await settle(page);
      for (let i = 0; i < 30; i++) {
        await settle(page);
        const seen = await page.evaluate(evidence);
        const problems = [...seen.problems];
        if (seen.selector) targets++;
        if (seen.row) rows++;
        if (seen.hasAsk) {
          questions++;
          await page.click('#tour-reveal');
          await settle(page);
          await page.waitForTimeout(400); // the answer scrolls into view smoothly
          problems.push(...(await page.evaluate(answered)));
        }
        steps++;
        const counter = await page.$eval('#tour-counter', (e) => e.textContent.trim());
        if (problems.length) {
          failing.push({ where, lesson, counter, problems });
          await page.screenshot({ path: path.join(SHOTS, `${lesson}-${cfg.w}x${cfg.h}-${cfg.lang}-step${i + 1}.png`) });
        }
        if (await page.$eval('#tour-next', (b) => b.disabled)) break;
        await page.click('#tour-next');
      }
      await page.click('#tour-exit');
      await settle(page);
    }
    await page.close();
  }
  await browser.close();
  for (const f of failing) console.log(`${f.lesson} step ${f.counter}, ${f.where}: ${f.problems.join('; ')}`);
  console.log(`tour evidence: ${steps} steps checked (${questions} with a question, ${targets} pointing at an element, ${rows} at a panel row) ` +
    `in ${CONFIGS.length} sizes and languages, ${failing.length} failing, in ${Math.round((Date.now() - started) / 1000)} s` +
    (failing.length ? `; screenshots in ${SHOTS}` : ''));
  if (steps < 100 && !process.env.LESSONS && !process.env.CONFIGS) {
    console.log('tour evidence: too few steps reached');
    process.exit(1);
  }
  if (failing.length) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
