// The engine's speed in the page's own build, in headless Chromium: a cold load
// of the built page in a fresh context (no HTTP or code cache), then the page's
// `EngineSoak` export (src/engine_speed.rs) steps the soak pipeline
// for EVENTS events from a cold start, timed per EVERY events with
// performance.now() — no warm-up, Chromium's default V8 flags. Prints lines in the
// soak example's shape, so scripts/bench.sh reads the total the same way.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/bench-page.cjs URL [EVENTS] [EVERY]
'use strict';
const { launch } = require('./chromium.cjs');

const [url, events = '5000000', every = '1000000'] = process.argv.slice(2);
if (!url || !(Number(events) > 0) || !(Number(every) > 0)) {
  console.error('usage: bench-page.cjs URL [EVENTS] [EVERY]');
  process.exit(2);
}

(async () => {
  const browser = await launch();
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.wasmBindings && window.wasmBindings.EngineSoak, null, { timeout: 60000 });
  const lines = await page.evaluate(([events, every]) => {
    const soak = new window.wasmBindings.EngineSoak();
    const out = [];
    const t0 = performance.now();
    let last = t0;
    let done = 0;
    while (done < events) {
      const want = Math.min(every, events - done);
      const ran = soak.run(want);
      done += ran;
      const now = performance.now();
      out.push(`${(done / 1e6).toFixed(2)}M events  after ${(now - t0).toFixed(1)} ms  ${(ran / (now - last) / 1e3).toFixed(2)} M events/s`);
      last = now;
      if (ran < want) { out.push(`agenda empty after ${done} events`); break; }
    }
    const total = (performance.now() - t0) / 1e3;
    out.push(`total: ${done} events in ${total.toFixed(2)} s = ${(done / total / 1e6).toFixed(2)} M events/s`);
    soak.free();
    return out;
  }, [Number(events), Number(every)]);
  console.log(`${lines.join('\n')}\n(Chromium ${browser.version()})`);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
