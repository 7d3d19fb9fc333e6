// First render: cold loads of the page in headless Chromium, each in
// a fresh browser context (no HTTP cache, no service worker), timed from
// navigation start to the first lesson's operator names drawn. Prints the
// median, min and max per build, and the machine's load average (timings are
// noisy on a shared 2-core machine: a figure, not a gate).
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/first-render.cjs [--loads N] NAME=URL...
// (scripts/first-render.sh serves the builds). Several builds alternate load by load.
'use strict';
const os = require('os');
const { launch } = require('./chromium.cjs');

const args = process.argv.slice(2);
let loads = 15;
const i = args.indexOf('--loads');
if (i >= 0) { loads = Number(args[i + 1]); args.splice(i, 2); }
const builds = args.map((a) => { const [name, url] = a.split('='); return { name, url, times: [] }; });
if (!builds.length || builds.some((b) => !b.url) || !(loads > 0)) {
  console.error('usage: first-render.cjs [--loads N] NAME=URL...');
  process.exit(2);
}

// Runs in the page before any of its scripts: the end mark is the first moment
// an operator name with text is in the document.
const mark = () => {
  const seen = () => [...document.querySelectorAll('.operator__name')].some((t) => t.textContent.trim());
  new MutationObserver((_, obs) => {
    if (seen()) { window.__firstRender = performance.now(); obs.disconnect(); }
  }).observe(document, { childList: true, subtree: true, characterData: true });
};

(async () => {
  const browser = await launch();
  const load = os.loadavg()[0];
  for (let n = 0; n < loads; n++) {
    for (const b of builds) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.addInitScript(mark);
      await page.goto(b.url);
      await page.waitForFunction(() => window.__firstRender !== undefined, null, { timeout: 30000 });
      b.times.push(await page.evaluate(() => window.__firstRender));
      await context.close();
    }
  }
  await browser.close();
  const ms = (x) => `${x.toFixed(0)} ms`;
  for (const b of builds) {
    const t = [...b.times].sort((x, y) => x - y);
    const median = t.length % 2 ? t[(t.length - 1) / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;
    console.log(`first render ${b.name}: median ${ms(median)} (${ms(t[0])}–${ms(t[t.length - 1])}) over ${t.length} cold loads`);
  }
  console.log(`load average at the start: ${load.toFixed(2)} (${os.cpus().length} cores), after: ${os.loadavg()[0].toFixed(2)}`);
})().catch((e) => { console.error(e); process.exit(1); });
