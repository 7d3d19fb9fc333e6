// A live class in one headless Chromium against the release build DIST, served
// by the Rust classroom server on 127.0.0.1 with a fresh state file:
//   1. the lecturer's laptop opens the presenter link (the secret in the URL's
//      fragment): the address bar drops it at once, and a crash the lecturer
//      clicks on the normal page reaches the phones;
//   2. three phones (each its own browser context, 390×844; zh, en, en) open the
//      students' link and show the lecturer's lesson, engine step and tour step;
//   3. P opens the presenter window (the first window becomes the projector's
//      view); a tour driven from it, the clicker's PageDown in the projector's
//      window, a step (→) and a lesson change reach every phone;
//   4. a vote with two rounds: the phones' choice buttons, the count on the
//      projector, round 1's spread, a second round where a phone changes its
//      mind, the reveal marking the right choice and playing on every screen;
//   5. a phone that reloads lands on the class's moment; a phone that steps on
//      its own is detached (it moves nobody) and one tap brings it back;
//   6. a phone that posts a moment or opens a vote without the secret is
//      refused (401) and moves nobody;
//   7. the server killed and started again with the same command: the same
//      links, every phone back on the lecturer's moment without a reload; the
//      lecturer's laptop silent (offline): every phone says the lecturer is
//      away (the server's --away-after-ms, 2 s here) and keeps the moment, and
//      is following again at the laptop's next heartbeat;
//   7c. the drill in class mode: the lecturer's exercise card asks the class
//      (one variant); the phones show it with its blanks, two answer right and
//      one wrong (after first answering right: one counted answer); the spread
//      first without right or wrong, then the reveal: right 2 / wrong 1 and the
//      spread on every screen, each phone its marks;
//   8. no window's address ever shows the secret; screenshots (to OUT) of a
//      phone following (zh, en), a vote on a phone and the projector's histogram,
//      the drill vote and its result on a phone (zh, en) and its histogram.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/classroom-live.cjs DIST [OUT]
// (scripts/classroom-live.sh). Exit 1 on failure.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { launch, settle, freePort } = require('./chromium.cjs');

const dist = path.resolve(process.argv[2] || 'dist');
const out = path.resolve(process.argv[3] || '/tmp/classroom-live-shots');
const failures = [];
const check = (ok, msg) => { if (!ok) failures.push(msg); else console.log(`  ok: ${msg}`); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The classroom server with its state in `state`; resolves to its links. */
function serve(port, state) {
  const child = spawn('bash', [path.join(__dirname, 'classroom-server.sh'), dist,
    '--host', '127.0.0.1', '--port', String(port), '--state', state, '--away-after-ms', '2000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const presenter = text.match(/^presenter: (\S+)/m);
      const students = text.match(/^students: (\S+)/m);
      if (presenter && students && text.includes('Ctrl-C')) resolve({ child, presenter: presenter[1], students: students[1] });
    });
    child.on('exit', (code) => reject(new Error(`classroom server exited with ${code}: ${text}`)));
  });
}

/** What a window shows: lesson, engine step, tour step (from the tour card,
 *  the projector's counter or the presenter's), playing. */
function moment(page) {
  return page.evaluate(() => {
    const stage = document.querySelector('.stage[data-scenario]');
    const counter = document.querySelector('#presenter-counter, #projector-counter, #tour-counter');
    const m = counter && counter.textContent.match(/(\d+)\D+(\d+)/);
    const play = document.querySelector('#play');
    return {
      lesson: stage?.dataset.scenario ?? null,
      step: document.querySelector('#clock')?.dataset.step ?? null,
      tour: m ? +m[1] - 1 : null,
      playing: play ? play.getAttribute('aria-pressed') === 'true' : null,
    };
  });
}

/** A screenshot of `page`, brought to the front first (a page in the
 *  background may never say its fonts are ready). */
async function shot(page, name) {
  await page.bringToFront();
  await settle(page, 150);
  await page.screenshot({ path: path.join(out, name) });
}

const same = (a, b, keys) => keys.every((k) => a[k] === b[k]);

/** Waits until every phone shows the lecturer's moment (`keys` of it). */
async function follow(lecturer, phones, what, keys = ['lesson', 'step', 'tour']) {
  let want;
  let seen = [];
  for (let i = 0; i < 80; i++) {
    want = await moment(lecturer);
    seen = await Promise.all(phones.map((p) => moment(p)));
    if (seen.every((s) => same(s, want, keys))) break;
    await sleep(100);
  }
  const ok = seen.every((s) => same(s, want, keys));
  check(ok, `${what}: ${phones.length} phones show ${JSON.stringify(Object.fromEntries(keys.map((k) => [k, want[k]])))}`
    + (ok ? '' : ` (phones: ${seen.map((s) => JSON.stringify(s)).join(' ')})`));
  return want;
}

async function barState(page) {
  return page.evaluate(() => document.querySelector('#class-bar')?.dataset.state ?? null);
}

async function waitFor(page, fn, arg, what, timeout = 8000) {
  await page.waitForFunction(fn, arg, { timeout }).then(() => check(true, what), () => check(false, what));
}

(async () => {
  fs.mkdirSync(out, { recursive: true });
  const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'class-')), 'class.json');
  const port = await freePort();
  let server = await serve(port, state);
  const secret = server.presenter.split('#presenter=')[1];
  check(/^[0-9a-f]{64}$/.test(secret || ''), 'the presenter link carries a 256-bit secret in its fragment');
  check(!server.students.includes(secret) && !server.students.includes('#'), 'the students\' link carries no secret');
  const browser = await launch();
  const pages = [];
  try {
    // 1. The lecturer's laptop: the normal page, speaking for the class.
    const laptop = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const projector = await laptop.newPage();
    pages.push(projector);
    const base = server.presenter.split('#')[0];
    await projector.goto(`${base}?lang=en&scenario=barrier-alignment#presenter=${secret}`);
    await projector.waitForSelector('.operator__box', { timeout: 30000 });
    await settle(projector, 200);
    check(!projector.url().includes(secret) && !projector.url().includes('presenter='),
      `the lecturer's address bar drops the secret at once (${projector.url()})`);
    check(await projector.$('#class-bar') === null, 'the lecturer\'s window has no students\' bar');

    // 2. Three phones at the students' link.
    const phones = [];
    for (const lang of ['zh', 'en', 'en']) {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const phone = await ctx.newPage();
      await phone.goto(`${server.students}?lang=${lang}`);
      phones.push(phone);
      pages.push(phone);
    }
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, () => document.querySelector('#class-bar')?.dataset.state === 'following', null,
        `phone ${i + 1} follows the class`, 30000);
    }
    await follow(projector, phones, 'a late joiner lands on the lecturer\'s lesson');

    // The lecturer's normal page: a key moment and two steps.
    await projector.keyboard.press('PageDown');
    await projector.keyboard.press('ArrowRight');
    await projector.keyboard.press('ArrowRight');
    await settle(projector, 200);
    await follow(projector, phones, 'a key moment and two steps on the lecturer\'s page');

    // 3. The presenter window; the first window becomes the projector's view.
    const [presenter] = await Promise.all([laptop.waitForEvent('page'), projector.keyboard.press('p')]);
    pages.push(presenter);
    await presenter.setViewportSize({ width: 1280, height: 800 });
    await presenter.waitForSelector('#presenter', { timeout: 30000 });
    await projector.waitForSelector('.app--projecting', { timeout: 10000 });
    check(!presenter.url().includes(secret), 'the presenter window\'s address holds no secret');
    await presenter.selectOption('#presenter-lesson', 'barrier-alignment');
    await settle(presenter, 300);
    await presenter.click('#presenter-tour-start');
    await follow(projector, phones, 'the tour started in the presenter window');
    await presenter.click('#presenter-next');
    await follow(projector, phones, 'next step from the presenter window');
    await projector.keyboard.press('PageDown');
    await follow(projector, phones, 'the clicker\'s PageDown in the projector\'s window');
    await projector.keyboard.press('PageUp');
    await follow(projector, phones, 'PageUp back to the question');
    await projector.keyboard.press('ArrowRight');
    await follow(projector, phones, 'one step (→) in the projector\'s window');
    for (let i = 0; i < 4 && (await moment(presenter)).tour !== 1; i++) {
      await presenter.click((await moment(presenter)).tour > 1 ? '#presenter-prev' : '#presenter-next');
      await settle(presenter, 150);
    }
    const q = await follow(projector, phones, 'back at step 2, the question');
    check(q.tour === 1, 'the class is at step 2, the question');

    // 4. The vote, two rounds.
    check(await presenter.$('#presenter-choices [data-right="true"]') !== null,
      'the presenter window marks the right choice');
    check(await projector.$('#presenter-choices, #tour-choices') === null,
      'the projector\'s window shows no choices and no answer');
    await presenter.click('#class-open');
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, () => document.querySelectorAll('.class-vote__choice').length === 4, null,
        `phone ${i + 1} shows the question's four choices as buttons`);
    }
    const choiceText = await phones[1].textContent('#class-choice-1');
    check(choiceText && choiceText.trim().length > 3, `the phones' buttons carry the choices' words ("${(choiceText || '').trim().slice(0, 40)}")`);
    await shot(phones[0], 'phone-vote-zh.png');
    await phones[0].click('#class-choice-4');
    await phones[1].click('#class-choice-1');
    await phones[2].click('#class-choice-2');
    await waitFor(projector, () => document.querySelector('#class-vote')?.dataset.answered === '3', null,
      'the projector counts 3 answers');
    check(await projector.$('.class-hist') === null, 'the spread stays hidden until the lecturer shows it');
    await presenter.click('#class-spread');
    await waitFor(projector, () => document.querySelector('#class-hist-1')?.dataset.tally === '1,1,0,1', null,
      'round 1\'s spread on the projector: A 1, B 1, D 1');
    console.log('  round 1:', await projector.evaluate(() => document.querySelector('#class-hist-1')?.dataset.tally));
    await presenter.click('#class-again');
    await waitFor(phones[1], () => document.querySelector('#class-vote')?.dataset.round === '2'
      && document.querySelectorAll('.class-vote__choice').length === 4, null, 'round 2 opens on the phones');
    await phones[0].click('#class-choice-4');
    await phones[1].click('#class-choice-4');
    await phones[1].click('#class-choice-3');
    await phones[1].click('#class-choice-4');
    await phones[2].click('#class-choice-4');
    await waitFor(projector, () => document.querySelector('#class-vote')?.dataset.answered === '3', null,
      'round 2: three devices counted once each, whatever they changed');
    const before = await moment(projector);
    await presenter.click('#class-reveal');
    await waitFor(projector, () => document.querySelector('#class-hist-2')?.dataset.tally === '0,0,0,3'
      && document.querySelector('#class-hist-2')?.dataset.right === '3', null,
    'the reveal: round 2\'s spread with D marked right, round 1\'s beside it');
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, () => document.querySelector('#class-hist-2 .class-hist__row--right') !== null, null,
        `phone ${i + 1} shows the right choice`);
    }
    await sleep(600);
    const after = await moment(projector);
    check(after.playing === true || +after.step > +before.step, `the reveal plays the moment (${before.step} → ${after.step})`);
    await follow(projector, phones, 'every phone plays the reveal', ['lesson', 'playing']);
    await projector.waitForSelector('#class-hist-2');
    await settle(projector, 200);
    await shot(projector, 'projector-histogram-en.png');
    await shot(phones[1], 'phone-revealed-en.png');
    await projector.keyboard.press('.');
    await follow(projector, phones, 'the clicker\'s pause stops every phone at the lecturer\'s step');

    // A lesson change from the presenter window.
    await presenter.selectOption('#presenter-lesson', 'odd-even-sum');
    await follow(projector, phones, 'a lesson picked in the presenter window');
    await presenter.click('#presenter-tour-start');
    await presenter.click('#presenter-next');
    await follow(projector, phones, 'its tour\'s step 2');
    // The presenter window closed: the normal page speaks for the class again;
    // a crash the lecturer clicks there (a branch of the run) reaches the phones.
    await presenter.close({ runBeforeUnload: true });
    await projector.waitForFunction(() => !document.querySelector('.app--projecting'), null, { timeout: 8000 });
    await projector.click('#tour-exit').catch(() => {});
    await projector.keyboard.press('PageDown');
    await projector.click('button.lane-button >> nth=2');
    await projector.waitForSelector('#crash-task', { timeout: 5000 });
    await projector.click('#crash-task');
    await projector.keyboard.press('Escape').catch(() => {});
    await settle(projector, 300);
    await follow(projector, phones, 'the presenter window closed, a crash on the normal page');
    await settle(phones[1], 200);
    const widths = await Promise.all(phones.map((p) => p.evaluate(() => [innerWidth, document.documentElement.scrollWidth])));
    check(widths.every(([w, sw]) => w === 390 && sw <= 390),
      `no phone's page is wider than its screen during the restart (${widths.map((w) => w.join('/')).join(', ')})`);
    const lanes = (page) => page.evaluate(() => [...document.querySelectorAll('.lane-button')].map((b) => `${b.dataset.task}:${b.className.match(/lane-button--(\w+)/)[1]}`).join(' '));
    const lecturerLanes = await lanes(projector);
    check(!/^(\S+:running ?)+$/.test(lecturerLanes) && await lanes(phones[1]) === lecturerLanes,
      `a phone shows the lecturer's crash: ${lecturerLanes}`);
    await shot(phones[0], 'phone-following-zh.png');
    await shot(phones[1], 'phone-following-en.png');

    // 5. A phone reloads; a phone explores on its own and comes back.
    await phones[2].reload();
    await phones[2].waitForFunction(() => document.querySelector('#class-bar')?.dataset.state === 'following', null, { timeout: 30000 });
    await follow(projector, [phones[2]], 'a reloaded phone lands on the class\'s moment');
    await phones[1].keyboard.press('ArrowLeft');
    await phones[1].keyboard.press('ArrowLeft');
    await waitFor(phones[1], () => document.querySelector('#class-bar')?.dataset.state === 'exploring', null,
      'a phone that steps on its own is exploring, with a way back');
    const lecturerNow = await moment(projector);
    await sleep(400);
    check(same(await moment(projector), lecturerNow, ['lesson', 'step', 'tour']),
      'the exploring phone moved neither the projector nor the class');
    await follow(projector, [phones[0], phones[2]], 'the other phones still follow');
    await projector.keyboard.press('ArrowRight');
    await projector.keyboard.press('ArrowRight');
    await follow(projector, [phones[0], phones[2]], 'the class moves on');
    check(!same(await moment(phones[1]), await moment(projector), ['step', 'tour']),
      'the exploring phone stays where its student took it');
    await shot(phones[1], 'phone-exploring-en.png');
    await phones[1].click('#class-back');
    await follow(projector, [phones[1]], 'one tap on "Back to the class"');

    // 6. A student's page that tries to move the class moves nobody.
    const refused = await phones[0].evaluate(async () => {
      const post = (p, body, auth) => fetch(p, { method: 'POST', headers: Object.assign({ 'content-type': 'application/json' }, auth ? { authorization: auth } : {}), body: JSON.stringify(body) }).then((r) => r.status);
      return [
        await post('/api/moment', { link: '#lab=1.AAAA', lesson: 'pv-count', playing: false, speed: 1 }),
        await post('/api/moment', { link: '#lab=1.AAAA', lesson: 'pv-count', playing: false, speed: 1 }, 'Bearer ' + '0'.repeat(64)),
        await post('/api/vote/open', { question: 'x.1', round: 1, choices: 3 }),
      ];
    });
    check(refused.every((s) => s === 401), `a phone's moment, guessed secret and vote opening are refused (${refused.join(', ')})`);
    await sleep(500);
    await follow(projector, phones, 'after the attempts every phone still shows the lecturer\'s moment');

    // 7. The server restarts: same command, same state, same links.
    const lessonBefore = (await moment(projector)).lesson;
    server.child.kill('SIGKILL');
    await sleep(300);
    await waitFor(phones[0], () => document.querySelector('#class-bar')?.dataset.state === 'offline', null,
      'a phone says it is reconnecting while the server is down');
    server = await serve(port, state);
    check(server.presenter.endsWith(secret), 'the restarted server keeps the class\'s secret (the same links)');
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, () => document.querySelector('#class-bar')?.dataset.state === 'following', null,
        `phone ${i + 1} is back on the class by itself`, 15000);
    }
    console.log('  after the restart:', (await Promise.all(phones.map(barState))).join(' '));
    await projector.keyboard.press('ArrowRight');
    const afterRestart = await follow(projector, phones, 'after the restart the class follows the next step, no reload');
    check(afterRestart.lesson === lessonBefore, 'the same lesson after the restart');

    // 7b. The laptop goes quiet (asleep, off the Wi-Fi): the phones keep the
    // moment and say the lecturer is away; its next heartbeat brings it back.
    const quietAt = await moment(phones[0]);
    await laptop.setOffline(true);
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, () => document.querySelector('#class-bar')?.dataset.state === 'away', null,
        `phone ${i + 1} says the lecturer is away`, 10000);
    }
    check(same(await moment(phones[0]), quietAt, ['lesson', 'step', 'tour']), 'an away lecturer\'s moment stays on the phones');
    await shot(phones[1], 'phone-lecturer-away-en.png');
    await laptop.setOffline(false);
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, () => document.querySelector('#class-bar')?.dataset.state === 'following', null,
        `phone ${i + 1} follows again when the lecturer is back`, 10000);
    }

    // 7c. The drill in class mode: the lecturer asks the class an exercise
    // (q33's stored offset, one variant for everyone); two phones answer
    // right, one wrong; the reveal shows right 2 / wrong 1 and the spread on
    // every screen, and each phone its own marks.
    const drillStart = Date.now();
    await projector.goto(`${base}?lang=en&scenario=pv-count&drill=1&q=q33`);
    const card = '.drill-ex[data-kind="stored_offset"]';
    await projector.waitForSelector(`${card} #class-drill-ask`, { timeout: 30000 });
    const variant = await projector.getAttribute(card, 'data-variant');
    const blanks = await projector.$$eval(`${card} input[data-blank]`, (is) => is.map((i) => i.dataset.blank));
    for (const b of blanks) await projector.fill(`${card} input[data-blank="${b}"]`, '-987654');
    await projector.click(`${card} .drill-ex__check`);
    await projector.waitForSelector(`${card} .drill-ex__line.is-wrong`, { timeout: 5000 });
    const right = Object.fromEntries(await projector.$$eval(`${card} .drill-ex__line.is-wrong`,
      (ls) => ls.map((l) => [l.dataset.blank, JSON.parse(l.dataset.expected).number])));
    check(blanks.length === 2 && blanks.every((b) => Number.isInteger(right[b])),
      `the lecturer's card gives the engine's answers of variant ${variant}: ${JSON.stringify(right)}`);
    await projector.click(`${card} #class-drill-ask`);
    const form = '#class-vote[data-kind="stored_offset"] #class-drill-form';
    for (const [i, phone] of phones.entries()) {
      await waitFor(phone, (f) => document.querySelectorAll(`${f} input[data-blank]`).length === 2
        && !/[⟨⟩]|…$/.test(document.querySelector('#class-vote .class-vote__ask').textContent), form,
      `phone ${i + 1} shows the class's exercise, worded, with its two blanks`, 20000);
    }
    const variants = await Promise.all(phones.map((p) => p.getAttribute('#class-vote', 'data-variant')));
    check(variants.every((v) => v === variant), `every phone has the lecturer's variant ${variant} (${variants.join(', ')})`);
    const sizes = await phones[0].$$eval(`${form} input, ${form} button`, (es) => es.map((e) => Math.round(e.getBoundingClientRect().height)));
    check(sizes.every((h) => h >= 52), `the phone's field and button are at least 52 px tall (${sizes.join(', ')})`);
    await shot(phones[0], 'phone-drill-zh.png');
    await shot(phones[1], 'phone-drill-en.png');
    // Each phone's fields one after the other (two fills at once on one page mix their keys).
    const answer = async (phone, i, add) => {
      const texts = blanks.map((b, k) => String(right[b] + (k === 0 ? add : 0)));
      for (const [k, b] of blanks.entries()) await phone.fill(`${form} input[data-blank="${b}"]`, texts[k]);
      await phone.click('#class-drill-send');
      await waitFor(phone, (t) => (document.querySelector('#class-vote-status')?.textContent || '').includes(t),
        texts.join(' · '), `phone ${i + 1} says it sent ${texts.join(' · ')} and may change it`);
    };
    await answer(phones[2], 2, 0); // first right, then changed to a wrong answer: one counted
    await answer(phones[0], 0, 0);
    await answer(phones[1], 1, 0);
    await answer(phones[2], 2, 1);
    await waitFor(projector, () => document.querySelector('#class-vote')?.dataset.answered === '3', null,
      'the lecturer\'s page counts 3 answers (a changed answer counted once)');
    const rightText = blanks.map((b) => right[b]).join(' · ');
    const wrongText = blanks.map((b, k) => right[b] + (k === 0 ? 1 : 0)).join(' · ');
    // First the spread alone, for a discussion: nothing says which is right.
    await projector.click(`${card} #class-drill-spread`);
    const unmarked = `${rightText}=2|${wrongText}=1`;
    for (const [name, page] of [['the lecturer\'s page', projector], ['phone 1', phones[0]]]) {
      await waitFor(page, (w) => {
        const h = document.querySelector('#class-hist-1');
        return h && h.dataset.spread === w && !('right' in h.dataset) && !h.querySelector('.class-hist__mark')
          && !document.querySelector('#class-drill-marks');
      }, unmarked, `${name}: the spread ${unmarked} without right or wrong`);
    }
    await shot(phones[0], 'phone-drill-spread-zh.png');
    await projector.click(`${card} #class-drill-reveal`);
    const want = `${rightText}=2✓|${wrongText}=1`;
    for (const [name, page] of [['the lecturer\'s page', projector], ...phones.map((p, i) => [`phone ${i + 1}`, p])]) {
      await waitFor(page, (w) => {
        const h = document.querySelector('#class-hist-1');
        return h && h.dataset.right === '2' && h.dataset.wrong === '1' && h.dataset.spread === w
          && /✓/.test(h.querySelector('#class-hist-1-a0 .class-hist__mark')?.textContent || '');
      }, want, `${name}: right 2 / wrong 1, the spread ${want}, the right row ticked in words`);
    }
    const marks = await Promise.all(phones.map((p) => p.getAttribute('#class-drill-marks', 'data-right').catch(() => null)));
    check(marks.join() === 'true,true,false', `each phone marks its own answer (${marks.join(', ')})`);
    const wrongLine = await phones[2].textContent('#class-drill-marks .is-wrong').catch(() => '');
    check(wrongLine.includes(String(right[blanks[0]])), `the wrong phone sees the engine's answer ("${wrongLine.trim()}")`);
    console.log(`  drill round: ${((Date.now() - drillStart) / 1000).toFixed(1)} s`);
    await shot(phones[0], 'phone-drill-result-zh.png');
    await shot(phones[1], 'phone-drill-result-en.png');
    await projector.$eval('#class-vote', (e) => e.scrollIntoView({ block: 'center' }));
    await shot(projector, 'projector-drill-histogram-en.png');

    // 8. No address bar ever showed the secret.
    const urls = pages.filter((p) => !p.isClosed()).map((p) => p.url());
    check(urls.every((u) => !u.includes(secret)), `no window's address holds the secret (${urls.length} windows)`);
  } catch (e) {
    failures.push(`error: ${e.stack || e}`);
  } finally {
    await browser.close();
    server.child.kill('SIGKILL');
  }
  if (failures.length) {
    console.error(`classroom-live: ${failures.length} failing:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`classroom-live: all checks pass; screenshots in ${out}`);
})();
