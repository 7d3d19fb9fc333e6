// Frame timing of the page while playing, in headless Chromium: requestAnimationFrame
// intervals (p50/p95/max) and the number of tokens on the stage. Not a CI gate.
// Usage: [SKIP_QUIET=0] bash scripts/measure-frames.sh [scenario] [speed-option-value] [seconds]
const { launch } = require('./chromium.cjs');
(async () => {
  const [url, seconds, speed] = [process.argv[2], Number(process.argv[3] || 8), process.argv[4] || '4'];
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(url);
  await page.waitForSelector('#play');
  await page.selectOption('#speed-select', speed); // option index: 0 = 0.25x … 6 = 16x
  // SKIP_QUIET=0: play at the chosen speed throughout (newer builds skip quiet
  // stretches by default).
  if (process.env.SKIP_QUIET === '0' && await page.$('#skip-quiet:checked')) await page.click('#skip-quiet');
  await page.click('#play');
  const result = await page.evaluate((ms) => new Promise((resolve) => {
    const gaps = []; let last = performance.now(); let maxTokens = 0; const end = last + ms;
    function frame(now) {
      gaps.push(now - last); last = now;
      // Tokens are painted on a canvas that reports what it drew (data-tokens);
      // older builds drew one SVG element per token (.token).
      let n = 0;
      for (const c of document.querySelectorAll('canvas[data-tokens]')) n += Number(c.dataset.tokens);
      maxTokens = Math.max(maxTokens, n || document.querySelectorAll('.token').length);
      if (now < end) requestAnimationFrame(frame); else resolve({ gaps, maxTokens });
    }
    requestAnimationFrame(frame);
  }), seconds * 1000);
  const g = result.gaps.slice(1).sort((a, b) => a - b);
  const q = (p) => g[Math.min(g.length - 1, Math.floor(p * g.length))].toFixed(1);
  console.log(JSON.stringify({ url, loadavg: require('os').loadavg().map((x) => x.toFixed(2)).join(' '), frames: g.length, p50_ms: q(0.5), p95_ms: q(0.95), max_ms: g[g.length - 1].toFixed(1),
    max_tokens_on_stage: result.maxTokens, clock: await page.textContent('#clock') }));
  await browser.close();
})();
