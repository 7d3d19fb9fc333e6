// The page under a thumb. On the built page as a phone shows it (touch
// emulation: isMobile, hasTouch) at 360×740 and 390×844, in zh and en, it asserts:
//   - no sideways scroll, on the first screen and with the tour, menu or a
//     subtask's sheet open;
//   - every visible control (button, select, range, link, tab, labelled toggle)
//     is at least 44×44 CSS px and no two overlap — on the first screen, on the
//     timeline of restart-fixed-delay near its end (many markers, merged), in the
//     tour's sheet, the ⋯ menu and a subtask's sheet;
//   - for three tours (odd-even-sum, unaligned-backpressure, exactly-once-kafka),
//     after each tapped step: the element the step highlights (read from the
//     highlight stylesheet the page writes) is on screen, not under the sheet,
//     and so is the panel row the step talks about (the stylesheet's second
//     rule: chk-1 in the storage list, T1 in the sink's); the tour's Next
//     control is on screen; a revealed answer is in the sheet;
//   - the ⋯ menu's items are all inside the screen;
//   - a tapped subtask's sheet is on screen with the subtask above it, and offers
//     a crash only while one is possible;
//   - the caption speaks of tapping, not of Space or PageDown.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/phone-touch.cjs <base-url>
//   CONFIGS=0,2 some of the sizes and languages (by index). scripts/phone.sh
//   serves the build. Failing screens are screenshotted to $SHOTS (default
//   /tmp/phone-touch). Exit 1 on failure.
const fs = require('fs');
const path = require('path');
const { launch, settle: wait, PHONES, phonePage } = require('./chromium.cjs');

const BASE = process.argv[2];
const SHOTS = process.env.SHOTS || '/tmp/phone-touch';
// Traditional (its texts the Simplified ones converted) at one size only, last so
// the indexes of CONFIGS stay.
const ALL_CONFIGS = [
  ...PHONES.flatMap((size) => ['zh', 'en'].map((lang) => ({ ...size, lang }))),
  { ...PHONES.find((p) => p.width === 390), lang: 'zh-Hant' },
];
const CONFIGS = process.env.CONFIGS
  ? process.env.CONFIGS.split(',').map((i) => ALL_CONFIGS[+i])
  : ALL_CONFIGS;
const TOURS = ['odd-even-sum', 'unaligned-backpressure', 'exactly-once-kafka'];
if (!BASE) {
  console.error('usage: node scripts/phone-touch.cjs <base-url>');
  process.exit(2);
}
const settle = (page) => wait(page, 80);

// Runs in the page: the controls inside `scope` (a selector; the whole page by
// default) a finger can hit, each too small or overlapping another named.
function tapTargets(scope) {
  const MIN = 44;
  const root = scope ? document.querySelector(scope) : document.body;
  if (!root) return [`${scope}: missing`];
  const name = (el) => {
    const id = el.id ? `#${el.id}` : '';
    const cls = String(el.className.baseVal ?? el.className).split(' ')[0];
    return `${el.tagName.toLowerCase()}${id}${cls ? '.' + cls : ''}${el.dataset.task ? `[${el.dataset.task}]` : ''}`;
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false; // visually hidden inputs
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility === 'hidden') return false;
    }
    return true;
  };
  const all = [...root.querySelectorAll('button, select, a[href], input:not([type=hidden]), [role=tab], label.toggle, summary')]
    .filter(visible)
    // A control inside a labelled toggle is hit through its label.
    .filter((el) => !(el.tagName === 'INPUT' && el.closest('label.toggle, label.menu__item')));
  const problems = [];
  // Page coordinates: the page scrolls, a fixed sheet does not.
  const rects = all.map((el) => {
    const r = el.getBoundingClientRect();
    return { el, left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY, w: r.width, h: r.height };
  });
  for (const r of rects) {
    if (r.w < MIN - 0.5 || r.h < MIN - 0.5) problems.push(`${name(r.el)} is ${Math.round(r.w)}×${Math.round(r.h)} px`);
  }
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i];
      const b = rects[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) problems.push(`${name(a.el)} and ${name(b.el)} overlap by ${Math.round(x)}×${Math.round(y)} px`);
    }
  }
  return problems;
}

// Runs in the page: sideways scroll.
function sideways() {
  const over = document.scrollingElement.scrollWidth - innerWidth;
  return over > 1 ? [`the page scrolls sideways by ${over} px`] : [];
}

// Runs in the page: the tour step's evidence on a phone.
function tourStep() {
  const problems = [];
  const vw = innerWidth;
  const vh = innerHeight;
  const card = document.querySelector('.tour-card');
  if (!card) return ['the tour card is missing'];
  const sheetTop = card.getBoundingClientRect().top;
  const inside = (el, what, bottom = vh) => {
    if (!el) return problems.push(`${what}: missing`) && false;
    const r = el.getBoundingClientRect();
    // A straight channel running down is a line: no width, but on screen.
    if ((r.width === 0 && r.height === 0) || r.left < -1 || r.right > vw + 1 || r.top < -1 || Math.min(r.bottom, r.top + 44) > bottom + 1) {
      problems.push(`${what}: off screen (${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}; room above the sheet ${Math.round(bottom)})`);
      return false;
    }
    return true;
  };
  inside(document.querySelector('#tour-next'), 'Next');
  const css = [...document.querySelectorAll('style')].map((s) => s.textContent)
    .find((t) => t.includes('--tour-highlight'));
  const selector = css ? css.split('{')[0].replace(/\s*\.channel__line\s*$/, '').trim() : null;
  // A step that names a panel row points at the row (below): the page scrolls
  // the row above the sheet, and its tab may leave the screen.
  const rowSelector = css ? (css.split('\n')[1] || '').split('{')[0].trim() : '';
  if (selector && !rowSelector) {
    const target = document.querySelector(`.stage ${selector}`) || document.querySelector(selector);
    if (inside(target, `target ${selector}`, sheetTop)) {
      const r = target.getBoundingClientRect();
      const x = Math.min(Math.max(r.left + r.width / 2, 1), vw - 2);
      const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 20), 1), sheetTop - 2);
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(target.contains(hit) || hit.contains(target) || hit.closest(selector))) {
        problems.push(`target ${selector}: covered by ${hit ? hit.tagName.toLowerCase() + '.' + String(hit.className.baseVal ?? hit.className).split(' ')[0] : 'nothing'}`);
      }
    }
  }
  // The panel row the step talks about (the stylesheet's second rule): its
  // first lines above the sheet, not only the tab that shows its panel.
  if (rowSelector) {
    const row = document.querySelector(rowSelector);
    if (inside(row, `row ${rowSelector}`, sheetTop)) {
      const r = row.getBoundingClientRect();
      const hit = document.elementFromPoint(Math.min(r.left + 20, vw - 2), Math.min(r.top + 10, sheetTop - 2));
      if (!hit || !row.contains(hit)) problems.push(`row ${rowSelector}: covered by ${hit ? hit.tagName.toLowerCase() + '.' + String(hit.className.baseVal ?? hit.className).split(' ')[0] : 'nothing'}`);
    }
  }
  return { problems, selector, ask: !!document.querySelector('#tour-reveal') };
}

// Runs in the page: the revealed answer is readable in the sheet.
function answerShown() {
  const a = document.querySelector('#tour-answer');
  if (!a) return ['answer: missing after the tap'];
  const r = a.getBoundingClientRect();
  const c = document.querySelector('.tour-card').getBoundingClientRect();
  return r.top < c.top - 1 || r.top + Math.min(r.height, 40) > Math.min(c.bottom, innerHeight) + 1
    ? [`answer: not in the sheet (top ${Math.round(r.top)}, sheet ${Math.round(c.top)}–${Math.round(c.bottom)})`]
    : [];
}

// Runs in the page: every item of the ⋯ menu inside the screen.
function menuItems() {
  const items = [...document.querySelectorAll('#more-menu .menu__item, #more-menu .menu__row button')];
  const out = items.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.left < -1 || r.right > innerWidth + 1 || r.top < -1 || r.bottom > innerHeight + 1;
  }).map((el) => `menu item "${el.textContent.trim().slice(0, 30)}" is outside the screen`);
  return items.length < 5 ? [`only ${items.length} menu items`] : out;
}

// Runs in the page: the subtask's sheet and the subtask above it.
function taskSheet(task) {
  const problems = [];
  const sheet = document.querySelector(`.popover[data-popover-task="${task}"]`);
  if (!sheet) return [`${task}: no sheet after the tap`];
  const s = sheet.getBoundingClientRect();
  if (s.left < -1 || s.right > innerWidth + 1 || s.bottom > innerHeight + 1 || s.top < 0) problems.push(`${task}: the sheet is not on screen`);
  const lane = document.querySelector(`.lane-button[data-task="${task}"]`).getBoundingClientRect();
  if (lane.top < -1 || lane.top + Math.min(lane.height, 30) > s.top + 1) problems.push(`${task}: the subtask is not in view above its sheet`);
  return problems;
}

async function shoot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  const failing = [];
  const counts = { steps: 0, screens: 0 };
  const started = Date.now();
  for (const cfg of CONFIGS) {
    const where = `${cfg.width}x${cfg.height}-${cfg.lang}`;
    const page = await phonePage(browser, { width: cfg.width, height: cfg.height });
    const check = async (what, problems) => {
      counts.screens++;
      if (problems.length) {
        failing.push({ where, what, problems });
        await shoot(page, `${where}-${what.replace(/[^\w-]+/g, '-')}`);
      }
    };
    const open = async (query) => {
      await page.goto(`${BASE}/?lang=${cfg.lang}&${query}`);
      await page.waitForSelector('.operator__name');
      await settle(page);
    };

    // The first screen: wording, sizes, no sideways scroll.
    await open('scenario=odd-even-sum');
    const caption = await page.$eval('#live-narration', (e) => e.textContent);
    await check('first screen', [
      ...(await page.evaluate(tapTargets)),
      ...(await page.evaluate(sideways)),
      ...(/Space|PageDown|空格/.test(caption) ? [`the caption names keys on a phone: ${caption}`] : []),
    ]);

    // The timeline near the end of a run with many checkpoints and failures.
    await open('scenario=restart-fixed-delay&t=60000');
    await check('restart-fixed-delay timeline', [
      ...(await page.evaluate(tapTargets, '.transport')),
      ...(await page.evaluate(sideways)),
    ]);

    // The ⋯ menu.
    await open('scenario=odd-even-sum');
    await page.tap('#more-button');
    await settle(page);
    await check('the menu', [
      ...(await page.evaluate(menuItems)),
      ...(await page.evaluate(tapTargets, '#more-menu')),
      ...(await page.evaluate(sideways)),
    ]);

    // A subtask's sheet.
    await open('scenario=odd-even-sum&t=600');
    await page.tap('.lane-button[data-task="sum#0"]');
    await settle(page);
    const crash = await page.$('#crash-task');
    await check('a subtask sheet', [
      ...(await page.evaluate(taskSheet, 'sum#0')),
      ...(await page.evaluate(tapTargets, '.popover')),
      ...(await page.evaluate(sideways)),
      ...(crash ? [] : ['no crash offered for a running subtask']),
    ]);

    // Three tours, tapped step by step.
    for (const lesson of TOURS) {
      await open(`scenario=${lesson}`);
      await page.tap('#tour-start');
      await settle(page);
      for (let i = 0; i < 30; i++) {
        await settle(page);
        const seen = await page.evaluate(tourStep);
        const problems = [...seen.problems];
        if (seen.ask) {
          await page.tap('#tour-reveal');
          await settle(page);
          await page.waitForTimeout(300);
          problems.push(...(await page.evaluate(answerShown)));
        }
        problems.push(...(await page.evaluate(tapTargets, '.tour-card')), ...(await page.evaluate(sideways)));
        counts.steps++;
        await check(`${lesson} step ${i + 1}`, problems);
        if (await page.$eval('#tour-next', (b) => b.disabled)) break;
        await page.tap('#tour-next');
      }
    }
    await page.close();
  }
  await browser.close();
  for (const f of failing) console.log(`${f.where} ${f.what}: ${f.problems.join('; ')}`);
  console.log(`phone touch: ${counts.screens} screens (${counts.steps} tour steps) in ${CONFIGS.length} sizes and languages, ` +
    `${failing.length} failing, in ${Math.round((Date.now() - started) / 1000)} s` + (failing.length ? `; screenshots in ${SHOTS}` : ''));
  if (failing.length) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
