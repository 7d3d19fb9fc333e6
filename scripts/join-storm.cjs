// Forty phones join at once: N simulated phones fetch the page from the classroom
// server at the same moment through ONE shared, throttled link on loopback, and the
// table says when each could have become interactive (docs/performance.md).
//
// The link: a TCP proxy in this process between the phones and the server. All
// connections' downstream bytes (headers and bodies, not TCP/IP overhead) queue for
// one serial link of --link-mbit (goodput), served round-robin phone by phone and,
// within a phone, connection by connection, CHUNK bytes at a time: an access point
// with a queue per station (--share order: the phone that joined first is served
// first, the unfair extreme: the first phones finish sooner, the last no sooner).
// Each phone also has --rtt-ms of round trip (half each way; a new connection's
// first request waits one more round trip, the TCP handshake) and optionally its
// own radio's cap (--phone-mbit). Not modelled: TCP slow start and losses, Wi-Fi's
// airtime overhead and collisions.
//
// A simulated phone does what Chrome does on a first visit over plain http (a LAN
// address: not a secure context, so `Accept-Encoding: gzip, deflate`, no brotli, no
// service worker): GET / and, as the gzip of index.html arrives and is unpacked,
// every <link> it names (the stylesheets, the icon, Trunk's modulepreload of the JS
// and preload of the wasm), at most 6 connections per phone (HTTP/1.1). Its
// transfer is done at the last byte of the critical files (html, css, js, wasm; the
// first lesson's data is inline in index.html). Then, from the real page's own
// requests (below), what the page fetches after it renders: the idle prefetch of
// every lesson's data and the class's event stream, which share the link with the
// phones still loading.
//
// "Could have become interactive" = transfer done + the compile-and-mount tail: in
// a real headless Chromium at CPU 4× (Emulation.setCPUThrottlingRate), network
// unthrottled, the time from the last critical byte (resource timing) to
// interactive (page-timing.cjs's mark: #play clicked and the clock moved), median
// of a few loads. Unthrottled, the wasm arrives at once, so nothing of the streaming
// compile overlaps the download: an upper bound for a slow link. A few phone slots
// of each storm (--real) are real Chromium pages (CPU 4×) through the same link, as
// a cross-check: the table marks which figures are simulated and which are real.
//
// Usage (scripts/join-storm.sh copies the builds, builds the server, sets NODE_PATH;
// this script starts one classroom server per build):
//   node scripts/join-storm.cjs this=<dir> [baseline=<dir>] [--phones 40,100]
//     [--link-mbit 20] [--rtt-ms 40] [--phone-mbit 0] [--spread-ms 0] [--share fair|order] [--real 3]
//     [--repeats 2] [--loads 3] [--no-prefetch] [--target-s 8] [--short]
// Exits 1 only on real errors (a phone missing a file, a wrong status, encoding or
// byte count, a server that does not start), never on the target.
'use strict';
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const http = require('http');
const zlib = require('zlib');
const { chromium } = require('playwright-core');
const { serveClassroom, freePort } = require('./chromium.cjs');
const { loadMarks, median, percentile, throttleCpu } = require('./page-timing.cjs');

// ---------------------------------------------------------------------------
// Options.
const argv = process.argv.slice(2);
const builds = argv.filter((a) => a.includes('=') && !a.startsWith('--')).map((a) => {
  const [name, dir] = a.split('=');
  return { name, dir };
});
const flag = (name) => argv.includes(`--${name}`);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const SHORT = flag('short');
const PHONES = String(opt('phones', SHORT ? '40' : '40,100')).split(',').map(Number);
const LINK_MBIT = Number(opt('link-mbit', 20));
const RTT_MS = Number(opt('rtt-ms', 40));
const PHONE_MBIT = Number(opt('phone-mbit', 0)); // 0: no cap of its own
const SPREAD_MS = Number(opt('spread-ms', 0));
// fair: round-robin by phone; order: the phone that joined first first (the unfair extreme).
const SHARE = opt('share', 'fair');
const REAL = Number(opt('real', SHORT ? 1 : 3));
const REPEATS = Number(opt('repeats', SHORT ? 1 : 2));
const LOADS = Number(opt('loads', SHORT ? 1 : 3));
const PREFETCH = !flag('no-prefetch');
const TARGET_S = Number(opt('target-s', 8));
const OUT = process.env.OUT || '/tmp/join-storm.json';
const CPU = 4;
const CHUNK = 8192; // bytes per turn on the link: small, so that sharing is fine-grained
const TICK_MS = 4;
const TIMEOUT_MS = 300000;
// A name, not 127.0.0.1: Chromium treats loopback addresses as secure (brotli, a
// service worker); lan.test is plain http like a phone's http://192.168.x.y:port.
const HOST = 'lan.test';
if (!builds.length || PHONES.some((n) => !(n > 0)) || !(LINK_MBIT > 0) || !['fair', 'order'].includes(SHARE)) {
  console.error('usage: join-storm.cjs this=<dist> [baseline=<dist>] [--phones 40,100] [--link-mbit 20] …');
  process.exit(2);
}
const log = (s) => process.stderr.write(`${s}\n`);
const now = () => performance.now();
const loadavg = () => os.loadavg().map((x) => +x.toFixed(2));

// Chrome on Android, asking over plain http.
const HEADERS = {
  'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Accept-Encoding': 'gzip, deflate',
  'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8',
};
const ACCEPT = { html: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', css: 'text/css,*/*;q=0.1' };

// ---------------------------------------------------------------------------
// The shared link.
class Link {
  constructor(mbit, rttMs, phoneMbit) {
    this.bytesPerMs = (mbit * 1e6) / 8 / 1000;
    this.phoneBytesPerMs = phoneMbit > 0 ? (phoneMbit * 1e6) / 8 / 1000 : Infinity;
    this.half = rttMs / 2;
    this.rtt = rttMs;
    this.free = 0; // when the link finishes what it has sent (virtual time, ms)
    this.idle = true;
    this.sent = 0; // bytes through the link, all phones (real ones too)
    this.phones = []; // each: { conns: [], turn, free }
    this.turn = 0;
    this.timer = null;
    this.servers = [];
  }

  // A listening port for one phone: every connection to it is that phone's.
  async listen(upstreamPort) {
    const phone = { conns: [], turn: 0, free: 0 };
    this.phones.push(phone);
    const server = net.createServer((client) => this.connect(phone, client, upstreamPort));
    this.servers.push(server);
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    return server.address().port;
  }

  connect(phone, client, upstreamPort) {
    client.setNoDelay(true);
    const up = net.connect(upstreamPort, '127.0.0.1');
    up.setNoDelay(true);
    const accepted = now();
    const conn = { queue: [], queued: 0, up, client, ended: false, out: [], timer: null, upOut: [], upTimer: null };
    phone.conns.push(conn);
    // Requests: half a round trip, and a new connection's first waits for the handshake.
    client.on('data', (d) => this.later(conn, 'upOut', 'upTimer', Math.max(now(), accepted + this.rtt) + this.half, () => up.write(d)));
    client.on('end', () => this.later(conn, 'upOut', 'upTimer', now() + this.half, () => up.end()));
    // Responses: queue for the link; the server is paused while the queue is long
    // (an access point's buffer), so memory stays bounded.
    up.on('data', (d) => {
      conn.queue.push(d);
      conn.queued += d.length;
      if (conn.queued > 256 * 1024) up.pause();
      this.pump();
    });
    up.on('end', () => { conn.ended = true; this.pump(); });
    const drop = () => { client.destroy(); up.destroy(); phone.conns = phone.conns.filter((c) => c !== conn); };
    client.on('error', drop);
    client.on('close', drop);
    up.on('error', drop);
  }

  // Runs `f` at time `at` after everything queued before it on that connection.
  later(conn, list, timer, at, f) {
    conn[list].push({ at, f });
    const run = () => {
      conn[timer] = null;
      while (conn[list].length && conn[list][0].at <= now() + 0.5) conn[list].shift().f();
      if (conn[list].length) conn[timer] = setTimeout(run, Math.max(0, conn[list][0].at - now()));
    };
    if (!conn[timer]) conn[timer] = setTimeout(run, Math.max(0, at - now()));
  }

  // Sends what the link can send until now + TICK, a chunk per turn: the phones
  // in turn (the next turn starts after the phone served last), and in each phone
  // its connections in turn.
  pump() {
    if (this.timer) return;
    const t = now();
    // An idle link banks no credit; a busy one keeps its schedule even when a timer
    // fires late (a loaded machine), or the lateness would slow the link.
    if (this.idle && this.free < t) this.free = t;
    // Busy until past this tick: come back then (if nothing waits, that pass ends it).
    let pending = this.free >= t + TICK_MS;
    for (let served = true; served && this.free < t + TICK_MS;) {
      served = false;
      pending = false;
      if (SHARE === 'order') this.turn = 0;
      for (let k = 0; k < this.phones.length && !served; k++) {
        const i = (this.turn + k) % this.phones.length;
        const phone = this.phones[i];
        const conns = phone.conns.filter((c) => c.queued > 0 || (c.ended && !c.closed));
        if (!conns.length) continue;
        pending = true;
        if (phone.free > t + TICK_MS) continue; // its own cap
        served = true;
        this.turn = i + 1;
        const conn = conns[phone.turn++ % conns.length];
        if (!conn.queued) { // the server closed and everything before it was sent
          conn.closed = true;
          this.later(conn, 'out', 'timer', this.free + this.half, () => conn.client.end());
          continue;
        }
        const chunk = take(conn, CHUNK);
        this.sent += chunk.length;
        if (conn.queued < 64 * 1024) conn.up.resume();
        const begin = this.free;
        this.free += chunk.length / this.bytesPerMs;
        // A phone kept busy by its cap keeps its schedule too (a few ms of a late timer).
        phone.free = (phone.free >= begin - 2 * TICK_MS ? phone.free : begin) + chunk.length / this.phoneBytesPerMs;
        const at = Math.max(this.free, phone.free) + this.half;
        this.later(conn, 'out', 'timer', at, () => conn.client.write(chunk));
      }
      if (served) pending = true;
    }
    // Busy only if it stopped at its horizon; stopping for want of data (or for the
    // phones' own caps) is idle time, not credit for a burst later.
    this.idle = this.free < t + TICK_MS;
    if (pending) this.timer = setTimeout(() => { this.timer = null; this.pump(); }, Math.max(TICK_MS, this.free - now() - TICK_MS));
  }

  close() {
    for (const s of this.servers) s.close();
    for (const p of this.phones) for (const c of p.conns) { c.client.destroy(); c.up.destroy(); }
  }
}

function take(conn, n) {
  const parts = [];
  let got = 0;
  while (got < n && conn.queue.length) {
    const head = conn.queue[0];
    if (head.length <= n - got) { parts.push(conn.queue.shift()); got += head.length; } else {
      parts.push(head.subarray(0, n - got));
      conn.queue[0] = head.subarray(n - got);
      got = n;
    }
  }
  conn.queued -= got;
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------
// A simulated phone.

// The size a file is served in: the server's .gz beside it (written at its start)
// if there is one, else the file as built.
function servedBytes(dir, urlPath) {
  const file = path.join(dir, decodeURIComponent(urlPath.replace(/^\//, '') || 'index.html'));
  return fs.existsSync(`${file}.gz`) ? { size: fs.statSync(`${file}.gz`).size, enc: 'gzip' } : { size: fs.statSync(file).size, enc: null };
}

// GET `urlPath` on the phone's agent; resolves at the last byte with what arrived.
function get(phone, urlPath, accept, onBody) {
  return new Promise((resolve) => {
    const req = http.get({
      host: '127.0.0.1', port: phone.port, path: urlPath, agent: phone.agent,
      headers: { ...HEADERS, Host: `${HOST}:${phone.port}`, Accept: accept || '*/*' },
    }, (res) => {
      let bytes = 0;
      res.on('data', (d) => { bytes += d.length; if (onBody) onBody(d); });
      res.on('end', () => resolve({
        url: urlPath, status: res.statusCode, enc: res.headers['content-encoding'] || null, bytes, end: now(),
      }));
      res.on('error', (e) => resolve({ url: urlPath, error: String(e.message || e), end: now() }));
    });
    req.on('socket', (s) => phone.sockets.add(s));
    req.on('error', (e) => resolve({ url: urlPath, error: String(e.message || e), end: now() }));
  });
}

// The <link>s Chrome fetches while index.html arrives, in the order it meets them.
function linksIn(html, from) {
  const found = [];
  const re = /<link\b[^>]*>/g;
  re.lastIndex = from;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const attr = (n) => (m[0].match(new RegExp(`\\b${n}="([^"]*)"`)) || [])[1];
    const rel = attr('rel');
    if (['stylesheet', 'icon', 'modulepreload', 'preload'].includes(rel)) {
      found.push({ rel, url: new URL(attr('href'), 'http://x/').pathname, critical: rel !== 'icon' });
    }
    from = re.lastIndex;
  }
  return { found, from };
}

// One phone's first visit; `after` = what the page fetches once it renders.
async function phoneVisit(phone, after, tailMs, expected) {
  const t0 = now();
  const fetches = [];
  const seen = new Set();
  let html = '';
  let from = 0;
  const gunzip = zlib.createGunzip();
  gunzip.on('data', (d) => {
    html += d.toString('latin1'); // tags and URLs are ASCII
    const r = linksIn(html, from);
    from = r.from;
    for (const l of r.found) {
      if (seen.has(l.url)) continue;
      seen.add(l.url);
      fetches.push(get(phone, l.url, l.rel === 'stylesheet' ? ACCEPT.css : '*/*').then((x) => ({ ...x, critical: l.critical })));
    }
  });
  gunzip.on('error', () => {});
  const page = await get(phone, '/', ACCEPT.html, (d) => gunzip.write(d));
  gunzip.end();
  await new Promise((r) => gunzip.on('end', r));
  const files = [{ ...page, url: '/', critical: true }, ...await Promise.all(fetches)];
  const crit = files.filter((f) => f.critical);
  const done = Math.max(...crit.map((f) => f.end)) - t0;
  const critBytes = crit.reduce((s, f) => s + (f.bytes || 0), 0);
  // After it renders: the idle prefetch (and the event stream, held open).
  const later = [];
  let stream = null;
  if (after) {
    await sleep(Math.max(0, t0 + done + after.offsetMs - now()));
    for (const u of after.urls) later.push(get(phone, u, '*/*'));
    if (after.events) {
      stream = http.get({ host: '127.0.0.1', port: phone.port, path: '/api/events', agent: phone.agent, headers: { ...HEADERS, Host: `${HOST}:${phone.port}`, Accept: 'text/event-stream' } });
      stream.on('socket', (s) => phone.sockets.add(s));
      stream.on('error', () => {});
    }
  }
  const prefetched = await Promise.all(later);
  const all = [...files, ...prefetched];
  const errors = all.filter((f) => f.error || f.status !== 200 || !checks(f, expected))
    .map((f) => `${f.url}: ${f.error || `HTTP ${f.status}, ${f.enc}, ${f.bytes} bytes, expected ${JSON.stringify(expected(f.url))}`}`);
  return {
    stream, done, interactive: done + tailMs, critBytes, files: files.length, prefetched: prefetched.length,
    encodings: [...new Set(crit.map((f) => f.enc || 'identity'))].join('+'),
    prefetchDone: prefetched.length ? Math.max(...prefetched.map((f) => f.end)) - t0 : null, errors,
  };
}

const checks = (f, expected) => {
  const e = expected(f.url);
  return e && f.bytes === e.size && (f.enc || null) === e.enc;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------
// Real Chromium.
const launch = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run',
         `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
});

// One cold load of http://lan.test:<port>/ at CPU 4×: the marks, the critical
// files' last byte (resource timing, the marks' time base), every request with its
// start, and the bytes on the wire by interactive.
async function realLoad(browser, port, { play = true, settleMs = 0 } = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = [];
  let wire = 0;
  let interactive = false;
  const byId = {};
  const rec = (id) => byId[id] || (byId[id] = {});
  const header = (h, n) => h[n] || h[n.toLowerCase()];
  cdp.on('Network.requestWillBeSent', (e) => requests.push(Object.assign(rec(e.requestId), { url: e.request.url, type: e.type })));
  // The headers as sent (the network stack adds Accept-Encoding after requestWillBeSent).
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => { rec(e.requestId).acceptEncoding = header(e.headers, 'Accept-Encoding'); });
  cdp.on('Network.responseReceived', (e) => { rec(e.requestId).enc = header(e.response.headers, 'Content-Encoding') || 'identity'; });
  cdp.on('Network.loadingFinished', (e) => { if (!interactive) wire += e.encodedDataLength; });
  await cdp.send('Network.enable');
  await throttleCpu(cdp, CPU);
  try {
    await page.addInitScript(loadMarks, { play });
    await page.goto(`http://${HOST}:${port}/`, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    await page.waitForFunction((play) => window.__marks && window.__marks[play ? 'interactive' : 'firstRender'] !== undefined,
      play, { timeout: TIMEOUT_MS, polling: 100 });
    interactive = true;
    if (settleMs) await page.waitForTimeout(settleMs); // the idle prefetch
    const r = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource').map((e) => ({ url: e.name, type: e.initiatorType, start: e.startTime, end: e.responseEnd }));
      return { marks: window.__marks, navEnd: nav.responseEnd, res, origin: performance.timeOrigin };
    });
    const crit = r.res.filter((e) => /\.(js|wasm|css)$/.test(new URL(e.url).pathname));
    const done = Math.max(r.navEnd, ...crit.map((e) => e.end));
    return { ...r, done, interactive: r.marks.interactive, tail: r.marks.interactive - done, wire, requests };
  } catch (e) {
    return { error: String(e.message || e).split('\n')[0], wire, requests };
  } finally {
    await context.close();
  }
}

// The compile-and-mount tail, from LOADS cold loads straight from the server (no
// shaping), and what the page fetches after it renders, from one more load left
// idle after its first render (a student's phone follows the lecturer; playing
// would keep requestIdleCallback, and so the prefetch, waiting).
async function calibrate(browser, build) {
  const loads = [];
  for (let i = 0; i < LOADS; i++) {
    log(`calibration ${build.name}: load ${i + 1}/${LOADS} at CPU ${CPU}×, unthrottled`);
    loads.push(await realLoad(browser, build.port));
  }
  const ok = loads.filter((l) => !l.error);
  if (!ok.length) throw new Error(`calibration of ${build.name} failed: ${loads[0].error}`);
  log(`calibration ${build.name}: one load left idle for 6 s after its first render`);
  const first = await realLoad(browser, build.port, { play: false, settleMs: 6000 });
  if (first.error) throw new Error(`calibration of ${build.name} failed: ${first.error}`);
  const after = first.res.filter((e) => e.start > first.done && new URL(e.url).pathname.startsWith('/data/'));
  const urls = [...new Set(after.map((e) => new URL(e.url).pathname))];
  const events = first.requests.some((r) => r.url.includes('/api/events'));
  const encs = [...new Set(first.requests.filter((r) => r.enc).map((r) => r.enc))];
  return {
    tailMs: median(ok.map((l) => l.tail)), tails: ok.map((l) => Math.round(l.tail)),
    interactive: ok.map((l) => Math.round(l.interactive)), firstRender: Math.round(first.marks.firstRender),
    after: { urls, events, offsetMs: after.length ? Math.min(...after.map((e) => e.start)) - first.done : 0 },
    requested: first.requests.length, encodings: encs, acceptEncoding: first.requests[0].acceptEncoding,
  };
}

// ---------------------------------------------------------------------------
// One storm: N phones (REAL of them Chromium) at once on a fresh link.
async function storm(browser, build, n) {
  const link = new Link(LINK_MBIT, RTT_MS, PHONE_MBIT);
  const ports = [];
  for (let i = 0; i < n; i++) ports.push(await link.listen(build.port));
  const real = Math.min(REAL, n);
  const expected = (u) => servedBytes(build.dir, u);
  const after = PREFETCH ? build.cal.after : null;
  const start = now();
  const startEpoch = performance.timeOrigin + start;
  const phones = ports.slice(real).map((port, i) => ({
    port, sockets: new Set(), agent: new http.Agent({ keepAlive: true, maxSockets: 6 }), delay: SPREAD_MS * (i + real) / Math.max(1, n - 1),
  }));
  const sims = phones.map(async (p) => {
    await sleep(p.delay);
    const r = await phoneVisit(p, after, build.cal.tailMs, expected);
    r.start = p.delay;
    return r;
  });
  const reals = ports.slice(0, real).map(async (port, i) => {
    await sleep(SPREAD_MS * i / Math.max(1, n - 1));
    const r = await realLoad(browser, port, { settleMs: 0 });
    if (!r.error) r.offset = r.origin - startEpoch; // its navigation start in the storm
    return r;
  });
  const simulated = await Promise.all(sims);
  const realPages = await Promise.all(reals);
  const took = now() - start;
  for (const s of simulated) if (s.stream) s.stream.destroy();
  const wires = phones.map((p) => [...p.sockets].reduce((s, k) => s + k.bytesRead, 0));
  for (const p of phones) p.agent.destroy();
  link.close();
  return { linkBytes: link.sent, simulated: simulated.map(({ stream, ...s }) => s), real: realPages.map(({ requests, res, ...r }) => r), wires, took };
}

// ---------------------------------------------------------------------------
(async () => {
  const startedAt = Date.now();
  const result = {
    started: new Date(startedAt).toISOString(), cores: os.cpus().length, loadavg_start: loadavg(),
    model: { share: SHARE, link_mbit: LINK_MBIT, rtt_ms: RTT_MS, phone_mbit: PHONE_MBIT || null, spread_ms: SPREAD_MS, chunk: CHUNK, prefetch: PREFETCH, cpu: CPU, real: REAL, repeats: REPEATS, loads: LOADS, accept_encoding: HEADERS['Accept-Encoding'] },
    builds: [], runs: [],
  };
  let failed = false;
  const servers = [];
  const browser = await launch();
  try {
    for (const b of builds) {
      const port = await freePort();
      const t = now();
      servers.push((await serveClassroom(b.dir, port)).child);
      b.port = port;
      b.serverStartS = +((now() - t) / 1000).toFixed(1);
      log(`${b.name}: classroom server on :${port} after ${b.serverStartS} s (precompressing ${b.dir})`);
      b.cal = await calibrate(browser, b);
      log(`${b.name}: compile+mount tail ${JSON.stringify(b.cal.tails)} ms; ${b.cal.after.urls.length} files prefetched after render${b.cal.after.events ? ', /api/events' : ''}; encodings ${b.cal.encodings}`);
      result.builds.push({ name: b.name, dir: b.dir, server_start_s: b.serverStartS, calibration: b.cal });
    }
    for (const n of PHONES) {
      for (let k = 0; k < REPEATS; k++) {
        for (const b of builds) {
          log(`storm: ${n} phones (${Math.min(REAL, n)} real) on ${LINK_MBIT} Mbit/s, ${b.name}, ${k + 1}/${REPEATS}`);
          const r = await storm(browser, b, n);
          const errors = r.simulated.flatMap((s) => s.errors).concat(r.real.filter((x) => x.error).map((x) => `real page: ${x.error}`));
          if (errors.length) { failed = true; log(`  ERRORS (${errors.length}): ${errors.slice(0, 5).join('; ')}`); }
          log(`  last phone done ${(Math.max(...r.simulated.map((s) => s.done)) / 1000).toFixed(1)} s, storm over in ${(r.took / 1000).toFixed(1)} s`);
          result.runs.push({ phones: n, repeat: k, build: b.name, errors: errors.length, ...r });
        }
      }
    }
  } catch (e) {
    failed = true;
    log(`error: ${e.stack || e}`);
  } finally {
    await browser.close();
    for (const s of servers) s.kill();
  }
  result.loadavg_end = loadavg();
  result.duration_s = Math.round((Date.now() - startedAt) / 1000);
  result.rows = rows(result);
  fs.writeFileSync(OUT, JSON.stringify(result, null, 1));
  print(result);
  process.exit(failed ? 1 : 0);
})();

// ---------------------------------------------------------------------------
// The table: one row per phone count and build; each figure the median over repeats.
function rows(r) {
  const out = [];
  for (const n of PHONES) {
    for (const b of r.builds) {
      const runs = r.runs.filter((x) => x.phones === n && x.build === b.name);
      if (!runs.length) continue;
      const per = (f) => median(runs.map(f));
      const sim = (run) => run.simulated.filter((s) => !s.errors.length);
      const done = (run) => sim(run).map((s) => s.done + s.start);
      const real = runs.flatMap((run) => run.real.filter((x) => !x.error));
      const crit = per((run) => median(sim(run).map((s) => s.critBytes)));
      out.push({
        phones: n, build: b.name, link_mbit: LINK_MBIT, encoding: runs[0].simulated[0] ? runs[0].simulated[0].encodings : '',
        kib_by_interactive: crit / 1024, kib_wire_all: per((run) => median(run.wires)) / 1024,
        mib_total: per((run) => run.linkBytes) / 1048576,
        floor_s: (n * crit * 8) / (LINK_MBIT * 1e6),
        done_s: ['first', 'median', 'p95', 'last'].map((_, i) => per((run) => {
          const d = done(run);
          return [Math.min(...d), median(d), percentile(d, 0.95), Math.max(...d)][i] / 1000;
        })),
        tail_s: b.calibration.tailMs / 1000,
        interactive_s: ['first', 'median', 'last'].map((_, i) => per((run) => {
          const d = done(run).map((x) => x + b.calibration.tailMs);
          return [Math.min(...d), median(d), Math.max(...d)][i] / 1000;
        })),
        real: real.map((x) => ({ done_s: (x.offset + x.done) / 1000, interactive_s: (x.offset + x.interactive) / 1000, tail_s: x.tail / 1000, kib: x.wire / 1024 })),
        real_failed: runs.reduce((s, run) => s + run.real.filter((x) => x.error).length, 0),
        errors: runs.reduce((s, run) => s + run.errors, 0), repeats: runs.length,
      });
    }
  }
  return out;
}

function print(r) {
  const f1 = (x) => (x == null ? '–' : x.toFixed(1));
  const compare = r.builds.length > 1;
  const header = ['phones', 'build', 'link', 'per phone by interactive (bodies)', 'through the link, all phones', 'floor',
    'transfer done first/median/p95/last', '+compile&mount', 'interactive first/median/last', `all ≤ ${TARGET_S} s?`];
  if (compare) header.push(`${r.builds[0].name} / ${r.builds[1].name}: bytes, last interactive`);
  const lines = r.rows.map((x) => {
    const base = r.rows.find((y) => y.phones === x.phones && compare && y.build === r.builds[1].name);
    const cells = [String(x.phones), x.build, `${x.link_mbit} Mbit/s`, `${x.kib_by_interactive.toFixed(0)} KiB ${x.encoding}`,
      `${x.mib_total.toFixed(1)} MiB`, `${f1(x.floor_s)} s`, x.done_s.map(f1).join(' / ') + ' s', `${f1(x.tail_s)} s`,
      x.interactive_s.map(f1).join(' / ') + ' s', x.interactive_s[2] <= TARGET_S ? 'yes' : 'NO'];
    if (compare) {
      cells.push(x.build === r.builds[0].name && base
        ? `${(x.kib_by_interactive / base.kib_by_interactive).toFixed(2)}, ${(x.interactive_s[2] / base.interactive_s[2]).toFixed(2)}` : '');
    }
    return cells;
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
  console.log();
  console.log('Simulated: every column above (Node phones on the shaped link; interactive = their last critical byte + the');
  console.log(`  compile&mount tail, measured in real Chromium at CPU 4× with the network unthrottled).${REAL ? ' Real Chromium pages in the storms:' : ''}`);
  const span = (xs, unit = 's', d = 1) => (xs.length ? `${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)} ${unit}` : '–');
  for (const x of r.rows) {
    const p = x.real;
    if (!p.length && !x.real_failed) continue;
    console.log(`  ${x.phones} phones, ${x.build}: ${p.length} real page(s): transfer done ${span(p.map((q) => q.done_s))}, `
      + `interactive ${span(p.map((q) => q.interactive_s))} (their own tail ${span(p.map((q) => q.tail_s))}), `
      + `${span(p.map((q) => q.kib), 'KiB', 0)} on the wire by then`
      + `${x.real_failed ? `; ${x.real_failed} failed` : ''}`);
  }
  for (const b of r.builds) {
    const c = b.calibration;
    console.log(`${b.name}: ${b.dir}; server ready after ${b.server_start_s} s; calibration tails ${c.tails.join(', ')} ms `
      + `(interactive ${c.interactive.join(', ')} ms from navigation); after render it fetches ${c.after.urls.length} data files`
      + `${c.after.events ? ' and /api/events' : ''}, from ${Math.round(c.after.offsetMs)} ms after its last critical byte`
      + `${PREFETCH ? '' : ' (not simulated: --no-prefetch)'}; `
      + `Chromium on http://${HOST} sent Accept-Encoding "${c.acceptEncoding}", got ${c.encodings.join(', ')}`);
  }
  console.log(`Model: one ${LINK_MBIT} Mbit/s link shared ${SHARE === 'fair' ? 'round-robin by phone' : 'in the order the phones joined'} (${CHUNK / 1024} KiB turns), ${RTT_MS} ms round trip`
    + `${r.model.phone_mbit ? `, ${r.model.phone_mbit} Mbit/s per phone` : ''}, phones starting over ${SPREAD_MS} ms, 6 connections each, `
    + `Accept-Encoding "${HEADERS['Accept-Encoding']}" (a phone on a plain-http LAN address); floor = phones × bytes by interactive / link.`);
  const errs = r.runs.flatMap((x) => x.simulated.flatMap((s) => s.errors));
  for (const e of errs.slice(0, 5)) console.log(`error: ${e}`);
  console.log(`median of ${REPEATS} storm(s) per row; load average ${r.loadavg_start.join(' ')} at the start, ${r.loadavg_end.join(' ')} at the end `
    + `(${r.cores} cores); took ${r.duration_s} s; JSON: ${OUT}`);
}
