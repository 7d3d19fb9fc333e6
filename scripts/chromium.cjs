// Headless Chromium for the measuring and screenshot scripts: Debian's binary,
// with the background services that would add noise to timings switched off.
const { chromium } = require('playwright-core');
module.exports.launch = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});

// Lets the page render: two animation frames, then `ms` more.
module.exports.settle = (page, ms = 30) => page.evaluate((ms) => new Promise((r) =>
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, ms)))), ms);

// A tour's second step with its answer shown: start the tour, next, reveal
// (barrier-alignment's "what will merge do with 1, 2, 3?"; savepoint-upgrade's
// longest card).
module.exports.openTourAnswer = async (page) => {
  await page.click('#tour-start');
  await module.exports.settle(page);
  await page.click('#tour-next');
  await module.exports.settle(page);
  await page.click('#tour-reveal');
};
