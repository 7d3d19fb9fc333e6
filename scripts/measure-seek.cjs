// Seeking latency in headless Chromium: load a scenario, let the timeline grow to
// a long run (driving the scrubber to its end until the horizon stops growing or
// reaches the target), then move the scrubber to random positions and time, for
// each, the input event → the clock's text in the DOM updated, and → the next
// frame painted. The aim: every seek answers within 100 ms, so dragging the
// scrubber feels direct. Not a CI gate.
// Usage: bash scripts/measure-seek.sh [scenario] [seeks] [target-horizon-ms]
const { launch } = require('./chromium.cjs');
(async () => {
  const [url, seeks, target] = [process.argv[2], Number(process.argv[3] || 30), Number(process.argv[4] || 60000)];
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(url);
  await page.waitForSelector('#scrubber');
  // Grow the run: each seek to the end lets the engine's head run further.
  const grown = await page.evaluate(async (target) => {
    const s = document.querySelector('#scrubber');
    const clock = document.querySelector('#clock');
    let last = ''; let same = 0;
    for (let i = 0; i < 2000 && same < 3; i++) {
      const max = Number(s.max);
      if (max >= target) break;
      s.value = String(max);
      s.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      // The run ended when seeking to the end no longer moves the clock.
      same = clock.textContent === last ? same + 1 : 0;
      last = clock.textContent;
    }
    return { horizon_ms: Number(s.max), clock: document.querySelector('#clock').textContent };
  }, target);
  const times = await page.evaluate(async (n) => {
    const s = document.querySelector('#scrubber');
    const clock = document.querySelector('#clock');
    const max = Number(s.max);
    // Deterministic "random" positions (a fixed LCG), so runs compare.
    let x = 12345;
    const rnd = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
    const dom = []; const frame = [];
    for (let i = 0; i < n; i++) {
      const t = Math.floor(rnd() * max);
      const before = clock.textContent;
      const t0 = performance.now();
      const changed = new Promise((resolve) => {
        const mo = new MutationObserver(() => { if (clock.textContent !== before) { mo.disconnect(); resolve(performance.now()); } });
        mo.observe(clock, { childList: true, characterData: true, subtree: true });
        setTimeout(() => { mo.disconnect(); resolve(performance.now()); }, 5000);
      });
      s.value = String(t);
      s.dispatchEvent(new Event('input', { bubbles: true }));
      const t1 = await changed;
      // The frame after the update: rAF, then a task after it (paint done).
      const t2 = await new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));
      dom.push(t1 - t0); frame.push(t2 - t0);
    }
    return { dom, frame };
  }, seeks);
  const stats = (a) => {
    const g = a.slice().sort((p, q) => p - q);
    const q = (p) => g[Math.min(g.length - 1, Math.floor(p * g.length))].toFixed(1);
    return { p50_ms: q(0.5), p95_ms: q(0.95), max_ms: g[g.length - 1].toFixed(1) };
  };
  console.log(JSON.stringify({ url, loadavg: require('os').loadavg().map((v) => v.toFixed(2)).join(' '), ...grown,
    seeks, to_dom_update: stats(times.dom), to_next_frame: stats(times.frame) }));
  await browser.close();
})();
