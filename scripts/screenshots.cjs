// Screenshots for a projector check (issue 5): the playing busy-network and
// odd-even-sum just after its crash, at 1600×900, in normal and projector mode.
// Usage: NODE_PATH=<tools>/pw/node_modules node scripts/screenshots.cjs <base-url> <out-dir>
const { launch } = require('./chromium.cjs');
(async () => {
  const [base, out] = [process.argv[2], process.argv[3] || '.'];
  const browser = await launch();
  for (const projector of [false, true]) {
    for (const lang of ['zh', 'en']) {
      const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
      const p = projector ? '&projector=1' : '';
      const tag = `${projector ? 'projector' : 'normal'}-${lang}`;
      await page.goto(`${base}/?lang=${lang}&scenario=busy-network${p}`);
      await page.waitForSelector('#play');
      await page.keyboard.press('Space');
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `${out}/busy-network-${tag}.png` });
      await page.goto(`${base}/?lang=${lang}&scenario=odd-even-sum&t=760${p}`);
      await page.waitForSelector('#play');
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/odd-even-sum-crash-${tag}.png` });
      await page.goto(`${base}/?lang=${lang}&scenario=restart-fixed-delay&t=3000${p}`);
      await page.waitForSelector('#play');
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/restart-fixed-delay-failed-${tag}.png` });
      await page.close();
    }
  }
  await browser.close();
})();
