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

// The phones the touch checks and screenshots use (CSS px), zh and en each.
module.exports.PHONES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];

// A page as a phone shows it: touch events, `(pointer: coarse)`, no hover, the
// device's pixel ratio, and the layout viewport of a mobile browser.
module.exports.phonePage = (browser, size) => browser.newPage({
  viewport: size, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
});
