// Offline after the first visit, and the classroom server, on the
// loopback address only. With the release build DIST:
//   1. the classroom server sends brotli, gzip or plain bytes as asked, each
//      equal to the file, with the right types;
//   2. a student loads a lesson; the service worker takes over and caches the
//      build; the server stops (the Wi-Fi drops); a reload still shows the
//      lesson, and a lesson never opened before opens;
//   3. a new build is served on the same address: after one reload its worker
//      has replaced the old cache, and the next reload shows the new build;
//   4. a lesson's data file that does not arrive (HTTP 404, no cache) gives a
//      message naming the file, not a panic.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/offline.cjs DIST
// (scripts/offline.sh builds or reuses dist/). Exit 1 on failure.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { launch, settle, freePort, serveClassroom: serve } = require('./chromium.cjs');

const dist = path.resolve(process.argv[2] || 'dist');
const failures = [];
const check = (ok, msg) => { if (!ok) failures.push(msg); else console.log(`  ok: ${msg}`); };

function copyBuild(to) {
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(dist, to, { recursive: true, filter: (f) => !/\.(br|gz)$/.test(f) });
  return to;
}
const stop = ({ child }) => new Promise((resolve) => { child.removeAllListeners('exit'); child.on('exit', resolve); child.kill(); });
const get = (url, encoding) => new Promise((resolve, reject) => {
  http.get(url, { headers: encoding ? { 'Accept-Encoding': encoding } : {} }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
  }).on('error', reject);
});
const buildOf = (page) => page.evaluate(() => document.querySelector('meta[name="checkpoint-lab-build"]')?.content);
async function drawn(page) {
  await page.waitForSelector('.operator__box', { timeout: 20000 });
  await settle(page);
  return page.evaluate(() => [...document.querySelectorAll('.operator__name')].map((t) => t.textContent).join(' '));
}

// A QR code's address: the server draws that lesson at that moment into the page
// (crates/classroom/src/linked.rs), shown before the wasm arrives; the app then
// mounts on the same moment with the graph where the frame had it.
async function linkedMoment(browser, url) {
  console.log('a linked moment drawn by the server:');
  const link = `${url}?scenario=savepoint-rescale&t=2040&lang=en`;
  const names = (page, root) => page.$$eval(`${root} .operator__name`, (ts) => ts
    .filter((t) => t.getBoundingClientRect().width > 0)
    .map((t) => { const r = t.getBoundingClientRect(); return { name: t.textContent, x: r.x, y: r.y }; }));
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.route(/\.wasm$/, (r) => r.abort());
  await page.goto(link);
  const chosen = await page.evaluate(() => document.documentElement.getAttribute('data-first-frame'));
  const frame = await names(page, '.first-frame[data-lang="en"] .first-frame__across');
  const clock = await page.$eval('.first-frame[data-lang="en"] .toolbar__clock', (c) => c.textContent);
  check(chosen === 'en' && frame.length >= 3 && clock === 't = 2040 ms',
    `without the wasm, ${link.slice(url.length)} shows savepoint-rescale's graph (${frame.map((n) => n.name).join(', ')}) at ${clock}`);
  await page.unroute(/\.wasm$/);
  await page.goto(link);
  await page.waitForFunction(() => document.querySelector('.stage[data-scenario="savepoint-rescale"]')
    && /2040/.test(document.querySelector('#clock')?.textContent || ''), null, { timeout: 30000 });
  await settle(page);
  const app = await names(page, '.stage[data-scenario="savepoint-rescale"]');
  const moved = Math.max(...frame.map((f) => {
    const a = app.find((n) => n.name === f.name);
    return a ? Math.hypot(a.x - f.x, a.y - f.y) : Infinity;
  }));
  check(app.length === frame.length && moved < 25,
    `the app mounts on the same moment, its operator names within ${moved.toFixed(1)} px of the frame's (under 25)`);
  await page.goto(`${url}?scenario=savepoint-rescale&tab=storage`);
  const hidden = await page.evaluate(() => !document.documentElement.hasAttribute('data-first-frame'));
  check(hidden, 'an address naming more than a moment (a tab) keeps the loading note, not a wrong frame');
  await context.close();
}

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'offline-'));
  const a = copyBuild(path.join(tmp, 'a'));
  const b = copyBuild(path.join(tmp, 'b'));
  // A new release: different bytes, so a new manifest and worker.
  fs.appendFileSync(path.join(b, 'index.html'), '\n<!-- the next release -->\n');
  execFileSync(process.execPath, [path.join(__dirname, 'sw-manifest.cjs'), b], { env: { ...process.env, TRUNK_PROFILE: '' } });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;

  console.log('classroom server (loopback):');
  let server = await serve(a, port);
  check(server.out.includes(url) && /[█▀▄]{10}/.test(server.out), `prints ${url} and a QR code`);
  const wasm = fs.readdirSync(a).find((f) => f.endsWith('.wasm'));
  const original = fs.readFileSync(path.join(a, wasm));
  const viaBr = await get(url + wasm, 'br');
  check(viaBr.headers['content-encoding'] === 'br' && zlib.brotliDecompressSync(viaBr.body).equals(original),
    `brotli wasm (${viaBr.body.length} of ${original.length} bytes) decodes to the file`);
  const viaGz = await get(url + wasm, 'gzip, deflate');
  check(viaGz.headers['content-encoding'] === 'gzip' && zlib.gunzipSync(viaGz.body).equals(original),
    `gzip wasm (${viaGz.body.length} bytes) decodes to the file`);
  const plain = await get(url + wasm);
  check(!plain.headers['content-encoding'] && plain.body.equals(original), 'plain wasm without Accept-Encoding');
  check(plain.headers['content-type'] === 'application/wasm', 'wasm served as application/wasm (streaming compile)');
  const escape = await new Promise((resolve, reject) => http.get({ host: '127.0.0.1', port, path: '/%2e%2e/%2e%2e/etc/passwd' },
    (res) => { res.resume(); resolve(res.statusCode); }).on('error', reject));
  check(escape === 404, `no path escapes the build (/%2e%2e/… is ${escape})`);

  const browser = await launch();
  await linkedMoment(browser, url);

  console.log('offline after the first visit:');
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(url);
  const first = await drawn(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  const buildA = await buildOf(page);
  check(first.length > 0 && buildA, `first visit draws "${first.slice(0, 40)}…" and a worker controls build ${buildA}`);

  await stop(server);
  await get(url).then(() => check(false, 'the server is down'), () => check(true, 'the server is down'));
  await page.reload();
  const again = await drawn(page);
  check(again === first && (await buildOf(page)) === buildA, 'reload without a server shows the same lesson');
  const options = await page.$$eval('#scenario-select option', (os) => os.map((o) => o.value));
  const other = options[options.length - 1];
  await page.selectOption('#scenario-select', other);
  await page.waitForFunction((n) => document.querySelector('#scenario-select').value === n
    && document.querySelector(`.stage[data-scenario="${n}"]`), other);
  const otherNames = await drawn(page);
  check(otherNames.length > 0 && otherNames !== first, `a lesson never opened (${other}) opens offline: "${otherNames.slice(0, 40)}…"`);

  console.log('a new release replaces the cache:');
  server = await serve(b, port);
  const buildB = fs.readFileSync(path.join(b, 'index.html'), 'utf8').match(/checkpoint-lab-build" content="(\w+)"/)[1];
  await page.reload();
  // The browser looks for a new worker on navigation (no forced update): poll.
  let keys = [];
  for (let i = 0; i < 150; i++) {
    keys = await page.evaluate(() => caches.keys());
    if (keys.length === 1 && keys[0] === `checkpoint-lab-${buildB}`) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  check(keys.length === 1 && keys[0] === `checkpoint-lab-${buildB}`,
    `the new worker (${buildB}) replaced cache ${buildA} (caches now: ${keys.join(', ')})`);
  await page.reload();
  await drawn(page);
  const shown = await buildOf(page);
  check(shown === buildB, `the next reload shows the new build ${buildB} (shows ${shown})`);

  await stop(server);

  console.log('a lesson data file that does not arrive:');
  const c = copyBuild(path.join(tmp, 'c'));
  const scenarios = path.join(c, 'data', 'scenarios');
  const victim = fs.readdirSync(scenarios).find((f) => f.startsWith(`${other}.`));
  fs.rmSync(path.join(scenarios, victim));
  server = await serve(c, port);
  const bare = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const fresh = await bare.newPage();
  await fresh.goto(url);
  await drawn(fresh);
  await fresh.selectOption('#scenario-select', other);
  const named = await fresh.waitForFunction((f) => document.body.innerText.includes(f), `data/scenarios/${victim}`, { timeout: 20000 })
    .then(() => true, () => false);
  const panicked = await fresh.$('#panic-banner, .error-banner');
  check(named && !panicked, `opening ${other} without data/scenarios/${victim} says which file (HTTP 404), no panic`);
  await bare.close();

  await browser.close();
  await stop(server);
  fs.rmSync(tmp, { recursive: true, force: true });
  if (failures.length) {
    console.error(`offline: ${failures.length} failure(s):\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('offline: all checks passed');
})().catch((e) => { console.error(e); process.exit(1); });
