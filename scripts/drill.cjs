// The interview drill on the built page, as a learner uses it, at 1280×720,
// 1024×768 and 390×844 (a phone), 简体, 繁體 and English: open ?drill=1, then for each
// question (every one in zh and en; in zh-Hant three questions with a typed, a
// value-chip and a pick-on-the-graph blank at every size and the others dealt
// round-robin over the sizes; DRILL_ALL=1 tries every one everywhere) open it,
// show its answer, answer every exercise wrong (the reason under each wrong blank, or the
// engine's answer where its kind gives no reason), see the stage paused at the
// moment that shows why, then right (the engine's answer as the wrong line
// carries it); reload and find the question still open. Throughout: no text of
// the drill cut at its column's edge (each text element's scrollWidth within
// its clientWidth, its box inside the column), every control at least 44×44 px,
// nothing wider than the screen. Also: question 37 answered by tapping records
// on the graph; the drill and the storage tab open side by side at 1280×720;
// on the phone the drill is on screen on arrival and "show it on the graph"
// brings the graph on screen. With SHOTS=<dir> it keeps screenshots of a wrong
// answer with its reason at each size and language, and of the drill beside a tab.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/drill.cjs <base-url>
// (scripts/drill.sh serves the build); DRILL_LANGS=zh,en narrows the languages.
const { launch, settle: wait } = require('./chromium.cjs');

const SIZES = [[1280, 720], [1024, 768], [390, 844]];
const SHOTS = process.env.SHOTS || '';
const ALL = process.env.DRILL_ALL === '1';
// The languages to try (DRILL_LANGS=zh-Hant for the Traditional page).
const LANGS = (process.env.DRILL_LANGS || 'zh,zh-Hant,en').split(',');
// Tried at every size and language: a typed blank (q33), value chips (s2) and
// records picked on the graph (q37).
const CORE = ['q37', 'q33', 's2'];
// The languages in which every question is tried at every size.
const EVERY_LANGS = ['zh', 'en'];
const settle = (page) => wait(page, 120);
const problems = [];
const tried = new Set();
let listed = 0;
const counts = { questions: 0, exercises: 0, typed: 0, values: 0, labels: 0, reasons: 0, noReason: 0, reloads: 0 };

async function shot(page, name) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

// Every visible control of the drill is ≥ 44×44 px (a phone's tap target),
// nothing of the page is wider than the screen, and no text of the drill is cut
// at its column's edge or inside its own box.
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
    if (document.documentElement.scrollWidth > w + 0.5) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${w})`);
    const drill = document.querySelector('#drill');
    if (!drill) return out.concat(['no drill on the page']);
    const column = drill.getBoundingClientRect();
    const edge = { left: Math.max(column.left, 0), right: Math.min(column.right, w) };
    for (const el of drill.querySelectorAll('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || el.closest('[hidden]') || el.closest('.visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const name = `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 40)}"`;
      const cs = getComputedStyle(el);
      if (cs.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) out.push(`${name}: its text is cut (${el.scrollWidth} > ${el.clientWidth} px)`);
      if (r.left < edge.left - 0.5 || r.right > edge.right + 0.5) out.push(`${name}: outside the drill (${r.left.toFixed(0)}–${r.right.toFixed(0)} of ${edge.left.toFixed(0)}–${edge.right.toFixed(0)})`);
    }
    return out;
  });
  for (const f of found) problems.push(`${where}: ${f}`);
}

async function clock(page) {
  const text = await page.textContent('#clock');
  return Number((text.match(/\d+/) || [NaN])[0]);
}

// After a check: the stage shows the exercise's variant, paused.
async function pausedOnVariant(page, where) {
  if ((await page.getAttribute('#play', 'aria-pressed')) !== 'false') problems.push(`${where}: the stage plays after the check (it should pause at the reason)`);
  const scenario = await page.getAttribute('.stage', 'data-scenario');
  if (!/-variant$/.test(scenario || '')) problems.push(`${where}: the stage shows ${scenario}, not the variant`);
  if (!(await clock(page) >= 0)) problems.push(`${where}: no clock after the check`);
}

// The blanks of an exercise card, as the page draws them.
async function blanksOf(page, card) {
  return page.$$eval(`${card} .drill-ex__form > .drill-ex__blank`, (els) => els.map((el) => {
    const input = el.querySelector('input');
    if (input) return { name: input.dataset.blank, form: 'typed' };
    const labels = [...el.querySelectorAll('.drill-chip[data-label]')].map((c) => c.dataset.label);
    const values = [...el.querySelectorAll('.drill-chip[data-value]')].map((c) => c.dataset.value);
    return labels.length ? { name: el.dataset.blank, form: 'labels', chips: labels } : { name: el.dataset.blank, form: 'values', chips: values };
  }));
}

// Sets a blank to `want`: typed text, or exactly the chips in `want` pressed.
async function enter(page, card, b, want) {
  if (b.form === 'typed') return page.fill(`${card} input[data-blank="${b.name}"]`, String(want));
  const attr = b.form === 'labels' ? 'data-label' : 'data-value';
  for (const v of b.chips) {
    const chip = `${card} [data-blank="${b.name}"] .drill-chip[${attr}="${v}"]`;
    const pressed = (await page.getAttribute(chip, 'aria-pressed')) === 'true';
    if (pressed !== want.includes(v)) await page.click(chip);
  }
}

// The engine's answer to a blank as its wrong line carries it.
function answerFor(b, expected) {
  const a = JSON.parse(expected);
  if ('number' in a) return String(a.number);
  const items = (a.set || a.labels).map(String);
  return b.form === 'typed' ? items.join(', ') : items;
}

// One exercise: wrong, its reasons, the stage; right.
async function exercise(page, where, card, tag, shoot) {
  const blanks = await blanksOf(page, card);
  for (const b of blanks) counts[b.form] += 1;
  // Wrong: a number no variant gives, and no chip pressed; a set the engine
  // answers with nothing gets its first chip instead.
  for (const b of blanks) await enter(page, card, b, b.form === 'typed' ? '-987654' : []);
  await page.click(`${card} .drill-ex__check`);
  await settle(page);
  if ((await page.getAttribute(`${card} .drill-ex__result`, 'data-right')) !== 'false') {
    for (const b of blanks.filter((b) => b.form !== 'typed')) await enter(page, card, b, b.chips.slice(0, 1));
    await page.click(`${card} .drill-ex__check`);
    await settle(page);
  }
  if ((await page.getAttribute(`${card} .drill-ex__result`, 'data-right')) !== 'false') {
    problems.push(`${where}: no wrong answer could be given`);
    return;
  }
  await pausedOnVariant(page, `${where} wrong`);
  const lines = await page.$$eval(`${card} .drill-ex__line.is-wrong`, (lis) => lis.map((li) => ({
    blank: li.dataset.blank,
    expected: li.dataset.expected,
    why: (li.querySelector('.drill-ex__why') || { textContent: '' }).textContent.trim(),
    text: li.textContent,
  })));
  if (!lines.length) problems.push(`${where}: a wrong answer shows no wrong line`);
  for (const l of lines) {
    if (!l.expected) problems.push(`${where}: ${l.blank}'s line does not carry the engine's answer`);
    if (l.why) {
      counts.reasons += 1;
      if (/[{}⟨⟩]/.test(l.why)) problems.push(`${where}: ${l.blank}'s reason is not worded: ${l.why}`);
    } else {
      counts.noReason += 1;
      if (!/(?:得到|gives)/.test(l.text)) problems.push(`${where}: ${l.blank}'s line states neither a reason nor the engine's answer`);
    }
  }
  await page.$eval(`${card} .drill-ex__result`, (e) => e.scrollIntoView({ block: 'center' }));
  await checkGeometry(page, `${where} answered wrong`);
  if (shoot) await shot(page, `drill-wrong-${tag}`);
  // "Show it on the graph": paused again at the reason, the graph on screen.
  const before = await clock(page);
  // (A run that ends there — the restart strategy gave up — has nothing to play.)
  if (await page.isEnabled('#play')) {
    await page.click('#play');
    await page.waitForTimeout(300);
  }
  await page.click(`${card} .drill-ex__replay`);
  await settle(page);
  await pausedOnVariant(page, `${where} replay`);
  if ((await clock(page)) !== before) problems.push(`${where}: the replay stops at ${await clock(page)} ms, the check at ${before} ms`);
  const stageOnScreen = await page.$eval('.stage', (s) => { const r = s.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
  if (!stageOnScreen) problems.push(`${where}: "show it on the graph" leaves the graph off screen`);
  // Right: the engine's answers.
  for (const l of lines) {
    const b = blanks.find((x) => x.name === l.blank);
    if (b && l.expected) await enter(page, card, b, answerFor(b, l.expected));
  }
  await page.click(`${card} .drill-ex__check`);
  await settle(page);
  if ((await page.getAttribute(`${card} .drill-ex__result`, 'data-right')) !== 'true') problems.push(`${where}: the engine's own answer was not marked right`);
  counts.exercises += 1;
}

(async () => {
  const base = process.argv[2];
  const browser = await launch();
  for (const [size, [width, height]] of SIZES.entries()) {
    for (const lang of LANGS) {
      const where = `${width}x${height} ${lang}`;
      const tag = `${width}x${height}-${lang}`;
      const phone = width < 500;
      const page = await browser.newPage({ viewport: { width, height }, hasTouch: phone, isMobile: phone });
      await page.goto(`${base}/?lang=${lang}&drill=1`);
      await page.waitForSelector('.drill-item');
      await settle(page);
      const top = await page.$eval('#drill-heading', (h) => h.getBoundingClientRect().top);
      if (top < 0 || top > height - 40) problems.push(`${where}: ?drill=1 leaves the drill off screen (its heading at ${top.toFixed(0)} px)`);
      await checkGeometry(page, `${where} list`);

      // Which questions: every one in zh and en (and with DRILL_ALL=1 in every
      // language); in the other languages the core three and this size's share of
      // the rest (the i-th other question at the size i mod sizes).
      const ids = await page.$$eval('.drill-item', (items) => items.map((i) => i.dataset.id));
      listed = Math.max(listed, ids.length);
      const others = ids.filter((id) => !CORE.includes(id));
      const every = ALL || EVERY_LANGS.includes(lang);
      const chosen = every ? CORE.concat(others) : CORE.concat(others.filter((_, i) => i % SIZES.length === size));
      const forms = new Set();
      let shotTaken = false;
      for (const id of chosen) {
        await page.click(`.drill-item[data-id="${id}"]`);
        await page.waitForSelector('.drill-ex__form');
        await settle(page);
        await page.click('.drill-q__reveal');
        await checkGeometry(page, `${where} ${id} open`);
        const kinds = await page.$$eval('.drill-ex', (cs) => cs.map((c) => c.dataset.kind));
        for (const kind of kinds) {
          const card = `.drill-ex[data-kind="${kind}"]`;
          for (const b of await blanksOf(page, card)) forms.add(b.form);
          await exercise(page, `${where} ${id} ${kind}`, card, tag, !shotTaken && (id === 'q33' || id === 'q37'));
          shotTaken = shotTaken || id === 'q33' || id === 'q37';
        }
        counts.questions += 1;
        tried.add(id);
        // A reload reopens the question.
        await page.reload();
        await page.waitForSelector('.drill-q');
        await settle(page);
        const open = await page.getAttribute('.drill-q', 'data-id');
        if (open !== id) problems.push(`${where}: after a reload ${open} is open, not ${id}`);
        counts.reloads += 1;
        await page.click('.drill-q__back');
      }
      for (const f of ['typed', 'values']) if (!forms.has(f)) problems.push(`${where}: no question with a ${f} blank was tried`);

      // Question 37 answered on the graph: each waiting record tapped there.
      await page.click('.drill-item[data-id="q37"]');
      const card = '.drill-ex[data-kind="alignment_waiting"]';
      await page.waitForSelector(`${card} .drill-chip`);
      await page.click(`${card} .drill-ex__check`);
      await settle(page);
      const expected = await page.$eval(`${card} .drill-ex__line.is-wrong`, (li) => li.dataset.expected).catch(() => '');
      const values = expected ? JSON.parse(expected).set : [];
      if (!values.length) problems.push(`${where}: q37's empty answer did not state the waiting records`);
      await page.click(`${card} .drill-ex__pick`);
      await page.waitForSelector('.pick-token');
      await settle(page);
      for (const v of values) {
        await page.click(`.pick-token[data-value="${v}"]`);
        if ((await page.getAttribute(`${card} .drill-chip[data-value="${v}"]`, 'aria-pressed')) !== 'true') problems.push(`${where}: tapping record ${v} on the graph did not choose it`);
      }
      await page.click(`${card} .drill-ex__check`);
      await settle(page);
      if ((await page.getAttribute(`${card} .drill-ex__result`, 'data-right')) !== 'true') problems.push(`${where}: the records tapped on the graph were not marked right`);

      // The drill and a tab together: the storage tab opens beside the open
      // question, which stays with its answers.
      await page.click('#tab-storage');
      await settle(page);
      const together = await page.evaluate(() => ({
        tab: !!document.querySelector('#tabpanel-storage:not([hidden])'),
        question: (document.querySelector('.drill-q') || {}).dataset?.id,
        verdict: document.querySelector('.drill-ex[data-kind="alignment_waiting"] .drill-ex__result')?.dataset.right,
      }));
      if (!together.tab || together.question !== 'q37' || together.verdict !== 'true') problems.push(`${where}: with the storage tab open the drill shows ${JSON.stringify(together)}`);
      if (!phone) {
        const side = await page.evaluate(() => {
          const d = document.querySelector('.side-panel__drill').getBoundingClientRect();
          const t = document.querySelector('#tabpanel-storage').getBoundingClientRect();
          return { beside: t.left >= d.right - 1, dw: d.width, tw: t.width };
        });
        if (!side.beside) problems.push(`${where}: the storage tab is not beside the drill (${JSON.stringify(side)})`);
        await page.$eval('.drill-q__question', (e) => e.scrollIntoView({ block: 'start' }));
        await checkGeometry(page, `${where} beside the storage tab`);
        if (width === 1280) await shot(page, `drill-with-tab-${tag}`);
        await page.click('#drawer-close');
        await settle(page);
      }
      await page.close();
      console.log(`drill: ${where} done`);
    }
  }
  await browser.close();
  // Every question of the list was tried somewhere, some of them with label chips.
  if (tried.size < listed) problems.push(`only ${tried.size} of the ${listed} questions were tried`);
  if (counts.labels === 0) problems.push('no question with label chips was tried');
  const line = `${counts.questions} question visits, ${counts.exercises} exercises, blanks: ${counts.typed} typed, ${counts.values} value chips, ${counts.labels} label chips; ${counts.reasons} reason lines, ${counts.noReason} wrong lines without a reason; ${counts.reloads} reloads`;
  if (problems.length) {
    for (const p of problems) console.error(`  ${p}`);
    console.error(`drill: ${problems.length} problem(s); ${line}`);
    process.exit(1);
  }
  console.log(`drill: every check passed at 1280x720, 1024x768 and 390x844, ${LANGS.join(', ')} (${ALL ? 'every question everywhere' : `every question in ${EVERY_LANGS.join(' and ')}, the others round-robin; ${tried.size} distinct`}): ${line}`);
})().catch((e) => { console.error(e); process.exit(1); });
