// The interview drill on the built page, as a learner uses it, at 1280×720 and
// 390×844 (a phone), zh and en: open ?drill=1, open question 37, show its
// answer, answer its exercise by tapping the choices (wrong, then right, the
// right set read from the engine's word that the page shows after a wrong
// answer), question 33's and state topic 4's (broadcast copies) by typing, the
// latter wrong then right; check that the stage plays the moment
// after each check, that every control is at least 44×44 px and nothing is wider
// than the screen. With SHOTS=<dir> it keeps a screenshot of the list, an open
// question, a wrong and a right answer at each size and language.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/drill.cjs <base-url>
// (scripts/drill.sh serves the build).
const { launch, settle: wait } = require('./chromium.cjs');

const SIZES = [[1280, 720], [390, 844]];
const SHOTS = process.env.SHOTS || '';
const settle = (page) => wait(page, 120);
const problems = [];

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

// Every visible control of the drill is ≥ 44×44 px (a phone's tap target) and
// nothing of the page is wider than the screen.
async function checkGeometry(page, where) {
  const found = await page.evaluate(() => {
    const out = [];
    const w = document.documentElement.clientWidth;
    // The top bar's own buttons are sized for a projector above a phone's width.
    const controls = w < 500 ? '#drill button, #drill input, #drill-button' : '#drill button, #drill input';
    for (const el of document.querySelectorAll(controls)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // not shown
      if (r.width < 43.5 || r.height < 43.5) out.push(`${el.className || el.id} "${el.textContent.trim().slice(0, 30)}" is ${r.width.toFixed(0)}×${r.height.toFixed(0)} px`);
    }
    for (const el of document.querySelectorAll('#drill *')) {
      const r = el.getBoundingClientRect();
      if (r.right > w + 0.5) { out.push(`${el.tagName}.${el.className} reaches ${r.right.toFixed(0)} px of ${w}`); break; }
    }
    if (document.documentElement.scrollWidth > w + 0.5) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${w})`);
    return out;
  });
  for (const f of found) problems.push(`${where}: ${f}`);
}

async function clock(page) {
  const text = await page.textContent('#clock');
  return Number((text.match(/\d+/) || [NaN])[0]);
}

async function playsTheMoment(page, where, card) {
  const playing = await page.getAttribute('#play', 'aria-pressed');
  if (playing !== 'true') problems.push(`${where}: the moment does not play after the check`);
  const stage = await page.$eval('#scenario-select', (s) => s.value).catch(() => '');
  const t = await clock(page);
  if (!(t >= 0)) problems.push(`${where}: no clock after the check`);
  return { stage, t, card };
}

(async () => {
  const base = process.argv[2];
  const browser = await launch();
  for (const [width, height] of SIZES) {
    for (const lang of ['zh', 'en']) {
      const where = `${width}x${height} ${lang}`;
      const tag = `${width}x${height}-${lang}`;
      const page = await browser.newPage({ viewport: { width, height }, hasTouch: width < 500, isMobile: width < 500 });
      await page.goto(`${base}/?lang=${lang}&drill=1`);
      await page.waitForSelector('.drill-item');
      await settle(page);
      await checkGeometry(page, `${where} list`);
      await shot(page, `drill-list-${tag}`);

      // Question 37: the answer, then the alignment exercise by tapping.
      await page.click('.drill-item[data-id="q37"]');
      await page.click('.drill-q__reveal');
      await page.waitForSelector('.drill-ex[data-kind="alignment_waiting"] .drill-chip');
      await settle(page);
      await checkGeometry(page, `${where} question 37`);
      await page.$eval('.drill-q__question', (e) => e.scrollIntoView());
      await shot(page, `drill-question-${tag}`);
      const card = '.drill-ex[data-kind="alignment_waiting"]';
      // Wrong: nothing tapped (at least one number always waits).
      await page.click(`${card} .drill-ex__check`);
      await settle(page);
      if ((await page.getAttribute(`${card} .drill-ex__result`, 'data-right')) !== 'false') problems.push(`${where}: an empty set was not marked wrong`);
      await playsTheMoment(page, `${where} wrong`, card);
      await page.$eval(`${card} .drill-ex__result`, (e) => e.scrollIntoView({ block: 'center' }));
      await checkGeometry(page, `${where} answered wrong`);
      await shot(page, `drill-wrong-${tag}`);
      // The engine's answer, as the result states it, tapped.
      const expected = await page.$eval(`${card} .drill-ex__line`, (li) => {
        const m = li.textContent.match(/(?:得到|gives) ([\d, ]+)/);
        return m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : [];
      });
      if (!expected.length) problems.push(`${where}: the result does not state the engine's answer`);
      // Tapped on the graph this time: the stage pauses at the question's
      // moment and each record is a button over it (the click lands only if
      // nothing covers it and it can be scrolled into view).
      await page.click(`${card} .drill-ex__pick`);
      await page.waitForSelector('.pick-token');
      await settle(page);
      await shot(page, `drill-on-graph-${tag}`);
      for (const v of expected) {
        await page.click(`.pick-token[data-value="${v}"]`);
        if ((await page.getAttribute(`${card} .drill-chip[data-value="${v}"]`, 'aria-pressed')) !== 'true') problems.push(`${where}: tapping record ${v} on the graph did not choose it`);
      }
      await page.click(`${card} .drill-ex__check`);
      await settle(page);
      if ((await page.getAttribute(`${card} .drill-ex__result`, 'data-right')) !== 'true') problems.push(`${where}: the engine's own answer was not marked right`);
      await playsTheMoment(page, `${where} right`, card);
      await page.$eval(`${card} .drill-ex__result`, (e) => e.scrollIntoView({ block: 'center' }));
      await checkGeometry(page, `${where} answered right`);
      await shot(page, `drill-right-${tag}`);

      // Question 33 by typing: a wrong offset is marked wrong.
      await page.click('.drill-q__back');
      await page.click('.drill-item[data-id="q33"]');
      const typed = '.drill-ex[data-kind="stored_offset"]';
      await page.waitForSelector(`${typed} input[data-blank="offset"]`);
      await page.fill(`${typed} input[data-blank="offset"]`, '999');
      await page.fill(`${typed} input[data-blank="app1"]`, '0');
      await page.fill(`${typed} input[data-blank="app2"]`, '0');
      await page.click(`${typed} .drill-ex__check`);
      await settle(page);
      if ((await page.getAttribute(`${typed} .drill-ex__result`, 'data-right')) !== 'false') problems.push(`${where}: offset 999 was not marked wrong`);
      await playsTheMoment(page, `${where} typed`, typed);
      await checkGeometry(page, `${where} typed`);

      // State topic 4 by typing: one copy for the whole job and no rule is wrong
      // (every variant has two or more subtasks and a rule); the engine's numbers,
      // as the result states them, are right.
      await page.click('.drill-q__back');
      await page.click('.drill-item[data-id="s4"]');
      const copies = '.drill-ex[data-kind="broadcast_copies"]';
      await page.waitForSelector(`${copies} input[data-blank="copies"]`);
      await page.fill(`${copies} input[data-blank="copies"]`, '1');
      await page.fill(`${copies} input[data-blank="rules"]`, '0');
      await page.click(`${copies} .drill-ex__check`);
      await settle(page);
      if ((await page.getAttribute(`${copies} .drill-ex__result`, 'data-right')) !== 'false') problems.push(`${where}: one copy of the broadcast state was not marked wrong`);
      await playsTheMoment(page, `${where} broadcast copies wrong`, copies);
      const engineSays = await page.$$eval(`${copies} .drill-ex__line`, (lis) => lis.map((li) => (li.textContent.match(/(?:得到|gives) (\d+)/) || [])[1]));
      if (engineSays.length !== 2 || engineSays.some((n) => !n)) problems.push(`${where}: the broadcast result does not state the engine's numbers: ${engineSays}`);
      else {
        await page.fill(`${copies} input[data-blank="copies"]`, engineSays[0]);
        await page.fill(`${copies} input[data-blank="rules"]`, engineSays[1]);
        await page.click(`${copies} .drill-ex__check`);
        await settle(page);
        if ((await page.getAttribute(`${copies} .drill-ex__result`, 'data-right')) !== 'true') problems.push(`${where}: the engine's own broadcast copies were not marked right`);
        await playsTheMoment(page, `${where} broadcast copies right`, copies);
      }
      await checkGeometry(page, `${where} broadcast copies`);
      await page.close();
      console.log(`drill: ${where} done`);
    }
  }
  await browser.close();
  if (problems.length) {
    for (const p of problems) console.error(`  ${p}`);
    console.error(`drill: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log('drill: every check passed at 1280x720 and 390x844, zh and en');
})().catch((e) => { console.error(e); process.exit(1); });
