// The presenter window and the projector's view, in one headless Chromium
// against the release build DIST, served on the loopback address:
//   1. the page opens its presenter window with P; the first window becomes
//      the projector's view (no top bar, no tour card);
//   2. a tour is driven from the presenter window's buttons, from the
//      projector's window with the clicker's keys (PageDown / PageUp) and from
//      the presenter window's keys; after each move both windows show the same
//      lesson, engine step and tour step, and the presenter window shows the
//      step's question and answer while the projector's document holds neither;
//   3. a lesson picked in the presenter window opens in both, and the clicker's
//      pause key (.) pauses both after Space started them;
//   4. closing the presenter window gives the projector's window its page back;
//   5. a class plan made in the presenter window (two lessons, minutes set)
//      resumes at its lesson and tour step after a reload, → / PageDown past a
//      lesson's last step opens the next lesson in both windows, and the plan
//      exported as a file and as a link opens in fresh browser contexts (and a
//      damaged file is refused naming the field);
//   6. the projector's view is the clean stage: while the presenter window
//      drives two lessons' tours, at every step and at 1280×720 and 1024×768,
//      the projector's window passes the key-moment audit (no overprint, no
//      border through text, no clipped text) and shows no tour card; at
//      1280×720 no text on it is below [projectable]'s floor of 14 px (at
//      1024×768, where the page scales down as a whole, the smallest is
//      reported);
//   7. screenshots at 1280×720 of both windows in zh, zh-Hant and en, and of
//      the plan editor (to OUT).
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/presenter.cjs DIST [OUT]
// (scripts/presenter.sh builds or reuses dist/). Exit 1 on failure.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, settle, freePort, serveClassroom: serve, stageAudit, textSizes } = require('./chromium.cjs');

const dist = path.resolve(process.argv[2] || 'dist');
const out = path.resolve(process.argv[3] || '/tmp/presenter-shots');
const failures = [];
const check = (ok, msg) => { if (!ok) failures.push(msg); else console.log(`  ok: ${msg}`); };


// What a window shows: its lesson, engine step and tour step (0-based, or null).
async function moment(page, presenter) {
  return page.evaluate((presenter) => {
    const step = document.querySelector('#clock')?.dataset.step;
    const lesson = presenter
      ? document.querySelector('#presenter-lesson')?.value
      : document.querySelector('#scenario-select')?.value;
    let tour = null;
    const counter = presenter
      ? document.querySelector('#presenter-counter')?.textContent
      : document.querySelector('#projector-counter')?.textContent;
    const m = counter && counter.match(/(\d+)\D+(\d+)/);
    if (m) tour = +m[1] - 1;
    return { lesson, step, tour };
  }, presenter);
}

// Waits until both windows show the same moment (and `want` of it, if given).
async function inStep(projector, presenter, what, want = {}) {
  let a, b;
  for (let i = 0; i < 100; i++) {
    a = await moment(projector, false);
    b = await moment(presenter, true);
    const same = a.lesson === b.lesson && a.step === b.step && a.tour === b.tour;
    const wanted = Object.entries(want).every(([k, v]) => a[k] === v);
    if (same && wanted) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  check(a.lesson === b.lesson && a.step === b.step && a.tour === b.tour
    && Object.entries(want).every(([k, v]) => a[k] === v),
  `${what}: both show ${JSON.stringify(a)}${JSON.stringify(a) === JSON.stringify(b) ? '' : ` (presenter: ${JSON.stringify(b)})`}`);
  return a;
}

// The projector's document never holds a question or an answer the presenter
// window has shown.
async function noAnswers(projector, presenter, seen, what) {
  const shown = await presenter.evaluate(() => ['#presenter-ask', '#presenter-answer']
    .map((s) => document.querySelector(s)?.textContent).filter(Boolean));
  shown.forEach((t) => seen.add(t));
  const leaks = await projector.evaluate((texts) => {
    const all = document.body.textContent;
    return texts.filter((t) => all.includes(t))
      .concat(document.querySelector('.tour-card, #tour-reveal') ? ['a tour card'] : []);
  }, [...seen]);
  check(leaks.length === 0, `${what}: the projector's window shows none of ${seen.size} questions and answers${leaks.length ? ` (shows: ${leaks[0].slice(0, 60)})` : ''}`);
}

async function openPair(browser, url, lang) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const projector = await context.newPage();
  await projector.goto(`${url}?lang=${lang}&scenario=barrier-alignment`);
  await projector.waitForSelector('.operator__box', { timeout: 30000 });
  await settle(projector);
  const [presenter] = await Promise.all([context.waitForEvent('page'), projector.keyboard.press('p')]);
  await presenter.setViewportSize({ width: 1280, height: 720 });
  await presenter.waitForSelector('#presenter', { timeout: 30000 });
  await projector.waitForSelector('.app--projecting', { timeout: 10000 });
  return { context, projector, presenter };
}

(async () => {
  fs.mkdirSync(out, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const server = await serve(dist, port);
  const browser = await launch();
  try {
    console.log('presenter and projector (en):');
    const { context, projector, presenter } = await openPair(browser, url, 'en');
    check(await projector.evaluate(() => getComputedStyle(document.querySelector('.topbar')).display === 'none'),
      'the projector\'s view hides the top bar');
    await presenter.waitForSelector('#presenter-status[data-connected="true"]', { timeout: 10000 });
    check(true, 'the presenter window is linked to the projector\'s window');
    await inStep(projector, presenter, 'opened', { lesson: 'barrier-alignment', tour: null });

    const seen = new Set();
    await presenter.click('#presenter-tour-start');
    await inStep(projector, presenter, 'tour started in the presenter window', { tour: 0 });
    await presenter.click('#presenter-next');
    const s2 = await inStep(projector, presenter, 'next step from the presenter window', { tour: 1 });
    check(await presenter.$('#presenter-ask') && await presenter.$('#presenter-answer'),
      'the presenter window shows step 2\'s question and its answer');
    await noAnswers(projector, presenter, seen, 'step 2');
    await projector.keyboard.press('PageDown');
    const s3 = await inStep(projector, presenter, 'PageDown (clicker) in the projector\'s window', { tour: 2 });
    check(+s3.step > +s2.step, `the engine moved on (${s2.step} → ${s3.step})`);
    await noAnswers(projector, presenter, seen, 'step 3');
    await presenter.keyboard.press('PageDown');
    await inStep(projector, presenter, 'PageDown in the presenter window', { tour: 3 });
    await noAnswers(projector, presenter, seen, 'step 4');
    await projector.keyboard.press('PageUp');
    await inStep(projector, presenter, 'PageUp (clicker) in the projector\'s window', { tour: 2 });
    await presenter.click('#presenter-prev');
    await inStep(projector, presenter, 'previous step from the presenter window', { tour: 1 });
    await noAnswers(projector, presenter, seen, 'back at step 2');

    // Another lesson from the presenter window; play and the clicker's pause.
    await presenter.selectOption('#presenter-lesson', 'odd-even-sum');
    await inStep(projector, presenter, 'a lesson picked in the presenter window', { lesson: 'odd-even-sum', tour: null });
    await presenter.click('#presenter-tour-start');
    await presenter.click('#presenter-next');
    await inStep(projector, presenter, 'its tour, step 2', { lesson: 'odd-even-sum', tour: 1 });
    await noAnswers(projector, presenter, seen, 'odd-even-sum step 2');
    await presenter.focus('#presenter-next');
    await presenter.evaluate(() => document.activeElement.blur());
    await presenter.keyboard.press(' ');
    await projector.waitForFunction(() => document.querySelector('#play')?.getAttribute('aria-pressed') === 'true'
      || /pause|暂停|暫停/i.test(document.querySelector('#play')?.getAttribute('aria-label') || ''), null, { timeout: 5000 })
      .then(() => check(true, 'Space in the presenter window plays the projector\'s window too'),
        () => check(false, 'Space in the presenter window plays the projector\'s window too'));
    await new Promise((r) => setTimeout(r, 700));
    await projector.keyboard.press('.');
    await inStep(projector, presenter, 'the clicker\'s pause (.) in the projector\'s window stops both at one step');

    // Screenshots (en), then close.
    await presenter.click('#presenter-next').catch(() => {});
    await inStep(projector, presenter, 'before the screenshots');
    await settle(projector, 300);
    await projector.screenshot({ path: path.join(out, 'projector-en.png') });
    await presenter.screenshot({ path: path.join(out, 'presenter-en.png') });
    await presenter.close({ runBeforeUnload: true });
    await projector.waitForFunction(() => !document.querySelector('.app--projecting'), null, { timeout: 8000 })
      .then(() => check(true, 'closing the presenter window gives the projector\'s window its page back'),
        () => check(false, 'closing the presenter window gives the projector\'s window its page back'));
    check(await projector.$('.tour-card') !== null, 'the normal page shows the tour card again');
    await context.close();



    console.log('the projector\'s view while the presenter window drives a tour (audits):');
    {
      const { context, projector, presenter } = await openPair(browser, url, 'en');
      await presenter.waitForSelector('#presenter-status[data-connected="true"]', { timeout: 10000 });
      for (const size of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
        await projector.setViewportSize(size);
        for (const lesson of ['barrier-alignment', 'odd-even-sum']) {
          await presenter.selectOption('#presenter-lesson', lesson);
          await inStep(projector, presenter, `${lesson} at ${size.width}×${size.height}`, { lesson });
          await presenter.click('#presenter-tour-start');
          let steps = 0;
          const defects = [];
          let smallest = Infinity;
          for (;;) {
            const at = await inStep(projector, presenter, `${lesson} step ${steps + 1}`, { tour: steps });
            await settle(projector, 120);
            const seen = await projector.evaluate(stageAudit);
            (seen ? seen.issues : ['no stage']).forEach((i) => defects.push(`step ${steps + 1}: ${i}`));
            if (await projector.$('.tour-card, #tour-reveal, #tour-answer')) defects.push(`step ${steps + 1}: a tour card on the projector`);
            for (const t of await projector.evaluate(textSizes)) {
              smallest = Math.min(smallest, t.px);
              if (size.width === 1280 && t.px < 13.95) defects.push(`step ${steps + 1}: ${t.px.toFixed(1)} px "${t.text}" (${t.kind})`);
            }
            steps++;
            if (await presenter.$eval('#presenter-next', (b) => b.disabled) || at.tour !== steps - 1) break;
            await presenter.click('#presenter-next');
          }
          check(defects.length === 0, `${lesson} at ${size.width}×${size.height}: ${steps} tour steps on the projector's view, `
            + `the smallest text ${smallest.toFixed(1)} px${defects.length ? `; ${defects.length} defects: ${defects.slice(0, 4).join('; ')}` : ', no defect'}`);
          await presenter.click('#presenter-tour-exit');
        }
      }
      await context.close();
    }

    console.log('class plan (en):');
    {
      const { context, projector, presenter } = await openPair(browser, url, 'en');
      await presenter.waitForSelector('#presenter-status[data-connected="true"]', { timeout: 10000 });
      await presenter.selectOption('#plan-choose', 'own');
      await presenter.click('#plan-add');
      await presenter.selectOption('#presenter-lesson', 'pv-count');
      await inStep(projector, presenter, 'pv-count picked', { lesson: 'pv-count' });
      await presenter.click('#plan-add');
      await presenter.fill('#plan-items li:nth-child(2) .plan__minutes', '7');
      await presenter.dispatchEvent('#plan-items li:nth-child(2) .plan__minutes', 'change');
      const items = () => presenter.evaluate(() => [...document.querySelectorAll('#plan-items li')]
        .map((li) => `${li.dataset.lesson}:${li.querySelector('.plan__minutes').value}`).join(' '));
      check(await items() === 'barrier-alignment:5 pv-count:7', `the plan holds ${await items()}`);
      await presenter.click('#plan-items li:nth-child(1) .plan__go');
      await inStep(projector, presenter, 'the plan opens its first lesson at its first step', { lesson: 'barrier-alignment', tour: 0 });
      await presenter.keyboard.press('PageDown');
      await inStep(projector, presenter, 'one step on', { tour: 1 });
      await presenter.reload();
      await presenter.waitForSelector('#plan-items li[aria-current]', { timeout: 20000 });
      await inStep(projector, presenter, 'after a reload of the presenter window', { lesson: 'barrier-alignment', tour: 1 });
      check(await presenter.evaluate(() => document.querySelector('#plan-items li[aria-current]')?.dataset.lesson) === 'barrier-alignment',
        'the reloaded plan resumes at its lesson');
      check(await items() === 'barrier-alignment:5 pv-count:7', 'the reloaded plan is the same plan');
      let moved = false;
      // The clicker aimed at the projector's window: its PageDown turns the
      // tour's steps there, and past the last one opens the plan's next lesson.
      for (let i = 0; i < 12 && !moved; i++) {
        await projector.keyboard.press('PageDown');
        await settle(projector, 150);
        moved = (await moment(presenter, true)).lesson === 'pv-count';
      }
      await inStep(projector, presenter, 'PageDown in the projector\'s window past the last step opens the plan\'s next lesson', { lesson: 'pv-count' });
      await presenter.selectOption('#presenter-lesson', 'barrier-alignment');
      await inStep(projector, presenter, 'back to the plan\'s first lesson', { lesson: 'barrier-alignment' });
      await presenter.click('#plan-items li:nth-child(1) .plan__go');
      await inStep(projector, presenter, 'the plan at its first lesson again', { lesson: 'barrier-alignment', tour: 0 });
      moved = false;
      for (let i = 0; i < 12 && !moved; i++) {
        await presenter.keyboard.press('PageDown');
        await settle(presenter, 150);
        moved = (await moment(presenter, true)).lesson === 'pv-count';
      }
      await inStep(projector, presenter, 'PageDown in the presenter window past the last step opens the plan\'s next lesson', { lesson: 'pv-count' });
      await settle(presenter, 200);
      await presenter.screenshot({ path: path.join(out, 'plan-editor-en.png') });
      const [download] = await Promise.all([presenter.waitForEvent('download'), presenter.click('#plan-export')]);
      const file = path.join(out, 'class-plan.json');
      await download.saveAs(file);
      const link = await presenter.getAttribute('#plan-link', 'href');
      check(/\?plan=barrier-alignment\.5~pv-count\.7$/.test(link), `the plan's link: ${link}`);
      await context.close();

      for (const [how, open] of [
        ['the link', async (page) => { await page.goto(`${link}&lang=en`); }],
        ['the file', async (page) => { await page.goto(`${url}?lang=en`); }],
      ]) {
        const fresh = await browser.newContext({ viewport: { width: 1280, height: 720 } });
        const page = await fresh.newPage();
        await open(page);
        await page.waitForSelector('.operator__box', { timeout: 30000 });
        const [pres] = await Promise.all([fresh.waitForEvent('page'), page.keyboard.press('p')]);
        await pres.waitForSelector('#plan', { timeout: 30000 });
        if (how === 'the file') {
          await pres.setInputFiles('#plan-import', file);
        }
        await pres.waitForSelector('#plan-items li', { timeout: 10000 });
        const got = await pres.evaluate(() => [...document.querySelectorAll('#plan-items li')]
          .map((li) => `${li.dataset.lesson}:${li.querySelector('.plan__minutes').value}`).join(' '));
        check(got === 'barrier-alignment:5 pv-count:7', `a fresh browser imports the plan from ${how}: ${got}`);
        if (how === 'the file') {
          const bad = path.join(out, 'bad-plan.json');
          fs.writeFileSync(bad, JSON.stringify({ items: [{ lesson: 'pv-count', minutes: 0 }] }));
          await pres.setInputFiles('#plan-import', bad);
          const err = await pres.waitForSelector('#plan-import-error', { timeout: 5000 }).then((e) => e.textContent(), () => '');
          check(err.includes('items[0].minutes'), `a damaged plan file is refused naming the field: ${err}`);
        }
        await fresh.close();
      }
    }

    for (const lang of ['zh', 'zh-Hant']) {
      console.log(`screenshots (${lang}):`);
      const pair = await openPair(browser, url, lang);
      await pair.presenter.click('#presenter-tour-start');
      await pair.presenter.click('#presenter-next');
      await inStep(pair.projector, pair.presenter, `${lang}: step 2`, { tour: 1 });
      await noAnswers(pair.projector, pair.presenter, new Set(), `${lang}: step 2`);
      await settle(pair.projector, 300);
      await pair.projector.screenshot({ path: path.join(out, `projector-${lang}.png`) });
      await pair.presenter.screenshot({ path: path.join(out, `presenter-${lang}.png`) });
      await pair.context.close();
    }
    console.log(`screenshots in ${out}`);
  } catch (e) {
    failures.push(`stopped early: ${e.message.split('\n')[0]}`);
  } finally {
    await browser.close();
    server.child.kill();
  }
  if (failures.length) {
    console.error(`presenter: ${failures.length} failure(s):\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('presenter: every check passed');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
