// The page on a classroom's hardware, emulated by Chromium itself (DevTools
// protocol: CPU slowed 1×/4×/6×, Wi-Fi and 3G throughput and latency), each load
// cold (fresh context, no service worker) at 1280×720:
//   1. frame intervals while a lesson plays, per CPU rate;
//   2. first render and time to interactive, on each network profile, from the
//      classroom server (brotli) and from a plain static server (uncompressed);
//   3. a QR short link to another lesson's key moment: until that moment is drawn.
// Several builds alternate load by load; the table gives each build's figure and
// this / baseline. Timings on a shared machine are noisy: a measuring tool, not a gate.
//
// Usage (scripts/classroom-hardware.sh serves the builds):
//   NODE_PATH=<tools>/pw/node_modules [QUICK=1] [LOADS=3] [OUT=<json>] \
//     node scripts/classroom-hardware.cjs this=<static-url>,<classroom-url> [baseline=<…>,<…>]
'use strict';
const fs = require('fs');
const os = require('os');
const { launch } = require('./chromium.cjs');
const { NETWORKS, coldPage, throttleCpu, frameIntervals, percentile, median, loadMarks } = require('./page-timing.cjs');

const QUICK = process.env.QUICK === '1';
const LOADS = Number(process.env.LOADS || (QUICK ? 1 : 3));
const OUT = process.env.OUT || '/tmp/classroom-hardware.json';
const LESSONS = ['odd-even-sum', 'barrier-alignment', 'unaligned-backpressure', 'busy-network'];
const CPU_RATES = [1, 4, 6];
const WARMUP_MS = 1000;
const FRAMES_MS = QUICK ? 3000 : 6000;
const LOAD_CPU = 4;
const TIMEOUT_MS = 120000;
// The QR path: savepoint-rescale at its tour's fourth stop, the new job's first
// checkpoint complete (2040 ms), a lesson whose data is fetched from dist/data.
const QR_LESSON = 'savepoint-rescale';
const QR_MOMENT_MS = 2040;

const builds = process.argv.slice(2).map((a) => {
  const [name, urls] = a.split('=');
  const [plain, classroom] = (urls || '').split(',');
  return { name, plain, classroom };
});
if (!builds.length || builds.some((b) => !b.plain || !b.classroom) || !(LOADS > 0)) {
  console.error('usage: classroom-hardware.cjs NAME=<static-url>,<classroom-url>...');
  process.exit(2);
}
const SERVERS = { classroom: 'classroom (br)', plain: 'static (raw)' };

const loadavg = () => os.loadavg().map((x) => +x.toFixed(2));
const log = (s) => process.stderr.write(`${s}\n`);

// Section 1: one cold load, play, a warm-up, then the rAF intervals. The page
// loads unthrottled (only playing is measured) and the CPU is slowed before play.
async function frames(browser, build, lesson, cpu) {
  const { context, page, cdp } = await coldPage(browser);
  try {
    await page.goto(`${build.plain}/?lang=en&scenario=${lesson}`);
    await page.waitForSelector('#play:not([disabled])', { timeout: TIMEOUT_MS });
    await throttleCpu(cdp, cpu);
    await page.click('#play');
    await page.waitForTimeout(WARMUP_MS);
    const stageNow = () => page.$eval('.stage[data-now]', (s) => Number(s.dataset.now));
    const from = await stageNow();
    // Only while it plays: a short lesson (barrier-alignment) ends within the window.
    const { gaps, ms } = await frameIntervals(page, FRAMES_MS, '#play[aria-pressed="true"]');
    if (gaps.length < 2) throw new Error('the lesson ended during the warm-up');
    return {
      frames: gaps.length, p50: percentile(gaps, 0.5), p95: percentile(gaps, 0.95), max: Math.max(...gaps),
      measured_ms: Math.round(ms), simulated_ms: (await stageNow()) - from,
    };
  } catch (e) {
    return { error: String(e.message || e).split('\n')[0] };
  } finally {
    await context.close();
  }
}

// Sections 2 and 3: one cold load of `url` until the marks `want` asks for.
async function load(browser, url, network, want) {
  const { context, page, bytes } = await coldPage(browser, { cpu: LOAD_CPU, network });
  try {
    await page.addInitScript(loadMarks, want);
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    await page.waitForFunction((w) => {
      const m = window.__marks;
      return m && m.firstRender !== undefined && (!w.play || m.interactive !== undefined)
        && (!w.moment || m.moment !== undefined);
    }, want, { timeout: TIMEOUT_MS, polling: 250 });
    const marks = await page.evaluate(() => window.__marks);
    return { ...marks, bytes: bytes.total, requests: bytes.requests };
  } catch (e) {
    return { error: String(e.message || e).split('\n')[0], bytes: bytes.total };
  } finally {
    await context.close();
  }
}

// The link a student scans: the QR dialog's short link at that moment, as this
// build writes it (it names the engine step, which `#clock` carries as data-step).
async function qrLink(browser, build) {
  const { context, page } = await coldPage(browser);
  try {
    await page.goto(`${build.classroom}/?lang=en&scenario=${QR_LESSON}&t=${QR_MOMENT_MS}`);
    await page.waitForSelector('#play:not([disabled])', { timeout: TIMEOUT_MS });
    const step = await page.getAttribute('#clock', 'data-step');
    await page.click('#more-button');
    await page.click('#qr-button');
    const link = await page.getAttribute('#qr-short-link', 'href', { timeout: 10000 });
    const linked = new URL(link).searchParams.get('step');
    if (linked !== step) throw new Error(`the short link names step ${linked}, the clock shows ${step}`);
    return { link, step };
  } finally {
    await context.close();
  }
}

(async () => {
  const started = Date.now();
  const result = {
    started: new Date(started).toISOString(), cores: os.cpus().length, loadavg_start: loadavg(),
    quick: QUICK, loads: LOADS, frame_window_ms: FRAMES_MS, warmup_ms: WARMUP_MS, load_cpu: LOAD_CPU,
    networks: NETWORKS, builds, frames: [], loads_raw: [], qr: {},
  };
  log(`load average at the start: ${result.loadavg_start.join(' ')} (${result.cores} cores)`);
  const browser = await launch();

  for (const lesson of LESSONS) {
    for (const cpu of CPU_RATES) {
      for (const b of builds) {
        log(`frames ${lesson} cpu ${cpu}× ${b.name}`);
        result.frames.push({ lesson, cpu, build: b.name, ...await frames(browser, b, lesson, cpu) });
      }
    }
  }

  for (let n = 0; n < LOADS; n++) {
    for (const network of Object.keys(NETWORKS)) {
      for (const server of Object.keys(SERVERS)) {
        for (const b of builds) {
          log(`load ${n + 1}/${LOADS} ${network} ${server} ${b.name}`);
          const r = await load(browser, `${b[server]}/?lang=en`, network, { play: true });
          result.loads_raw.push({ n, network, server, build: b.name, ...r });
        }
      }
    }
  }

  for (const b of builds) {
    try {
      result.qr[b.name] = { ...await qrLink(browser, b), loads: [] };
    } catch (e) {
      result.qr[b.name] = { error: String(e.message || e).split('\n')[0], loads: [] };
    }
  }
  for (let n = 0; n < LOADS; n++) {
    for (const b of builds) {
      const q = result.qr[b.name];
      if (q.error) continue;
      log(`QR link ${n + 1}/${LOADS} 3g ${b.name}`);
      q.loads.push(await load(browser, q.link, '3g', { moment: { scenario: QR_LESSON, step: q.step } }));
    }
  }
  await browser.close();

  result.loadavg_end = loadavg();
  result.duration_s = Math.round((Date.now() - started) / 1000);
  result.rows = table(result);
  fs.writeFileSync(OUT, JSON.stringify(result, null, 1));
  print(result);
})().catch((e) => { console.error(e); process.exit(1); });

// One row per measure: each build's figure (a list of numbers, or an error), so
// that the ratio can be taken figure by figure.
function table(r) {
  const rows = [];
  const per = (f) => Object.fromEntries(builds.map((b) => [b.name, f(b.name)]));
  for (const lesson of LESSONS) {
    for (const cpu of CPU_RATES) {
      rows.push({
        measure: `frames ${lesson}, CPU ${cpu}×`, unit: 'p50/p95/max ms',
        values: per((name) => {
          const f = r.frames.find((x) => x.lesson === lesson && x.cpu === cpu && x.build === name);
          if (f.error) return { error: f.error };
          const short = f.measured_ms < FRAMES_MS - 100;
          return { v: [f.p50, f.p95, f.max], note: short ? `ended after ${(f.measured_ms / 1000).toFixed(1)} s` : '' };
        }),
      });
    }
  }
  const summary = (loads, key, scale = 1) => {
    const failed = loads.filter((l) => l.error);
    if (failed.length === loads.length) return { error: failed[0] ? failed[0].error : 'no load' };
    const m = median(loads.filter((l) => !l.error).map((l) => l[key]));
    return { v: [m / scale], note: failed.length ? `${failed.length} of ${loads.length} failed` : '' };
  };
  for (const network of Object.keys(NETWORKS)) {
    for (const server of Object.keys(SERVERS)) {
      const of = (name) => r.loads_raw.filter((l) => l.network === network && l.server === server && l.build === name);
      const where = `${network}, ${SERVERS[server]}, CPU ${LOAD_CPU}×`;
      rows.push({ measure: `first render, ${where}`, unit: 'ms', values: per((n) => summary(of(n), 'firstRender')) });
      rows.push({ measure: `interactive, ${where}`, unit: 'ms', values: per((n) => summary(of(n), 'interactive')) });
      rows.push({ measure: `bytes by interactive, ${where}`, unit: 'KiB', values: per((n) => summary(of(n), 'bytes', 1024)) });
    }
  }
  const qr = (key, scale) => per((n) => (r.qr[n].error ? { error: r.qr[n].error } : summary(r.qr[n].loads, key, scale)));
  rows.push({ measure: `QR link to ${QR_LESSON} at ${QR_MOMENT_MS} ms: its graph on screen, 3g, CPU ${LOAD_CPU}×`, unit: 'ms', values: qr('graph', 1) });
  rows.push({ measure: `QR link to ${QR_LESSON} at ${QR_MOMENT_MS} ms: moment drawn, 3g, CPU ${LOAD_CPU}×`, unit: 'ms', values: qr('moment', 1) });
  rows.push({ measure: 'bytes by that moment, 3g, classroom (br)', unit: 'KiB', values: qr('bytes', 1024) });
  return rows;
}

function print(r) {
  const fmt = (x) => (x.error ? 'failed' : x.v.map((v) => (v == null ? '–' : v.toFixed(v >= 100 ? 0 : 1))).join(' / ') + (x.note ? ` (${x.note})` : ''));
  const names = builds.map((b) => b.name);
  const header = ['measure', 'unit', ...names];
  const compare = names.includes('this') && names.includes('baseline');
  if (compare) header.push('this / baseline');
  const lines = r.rows.map((row) => {
    const cells = [row.measure, row.unit, ...names.map((n) => fmt(row.values[n]))];
    if (compare) {
      const [a, b] = [row.values.this, row.values.baseline];
      cells.push(a.v && b.v ? a.v.map((x, i) => (x != null && b.v[i] ? (x / b.v[i]).toFixed(2) : '–')).join(' / ') : '–');
    }
    return cells;
  });
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((l) => l[i].length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
  console.log();
  for (const [name, q] of Object.entries(r.qr)) console.log(`QR short link (${name}): ${q.link || q.error}`);
  const failures = [...r.frames, ...r.loads_raw, ...Object.values(r.qr).flatMap((q) => q.loads)].filter((x) => x.error);
  for (const f of failures.slice(0, 5)) console.log(`failed: ${JSON.stringify(f)}`);
  console.log(`frames: ${r.frame_window_ms / 1000} s of requestAnimationFrame intervals after ${r.warmup_ms / 1000} s of play `
    + '(less where the lesson ends sooner); '
    + `loads: median of ${r.loads} cold load${r.loads > 1 ? 's' : ''} each, builds alternating`);
  console.log(`load average at the start: ${r.loadavg_start.join(' ')}, at the end: ${r.loadavg_end.join(' ')} `
    + `(${r.cores} cores; timings on a loaded machine are noisy); took ${r.duration_s} s; JSON: ${OUT}`);
}
