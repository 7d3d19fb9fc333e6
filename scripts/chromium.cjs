// Headless Chromium for the measuring and screenshot scripts: Debian's binary,
// with the background services that would add noise to timings switched off.
const { chromium } = require('playwright-core');
module.exports.launch = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
