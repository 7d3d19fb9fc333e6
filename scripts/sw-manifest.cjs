// Offline after the first visit: writes the service worker into a
// release build and registers it from its index.html. Run by Trunk as a
// post_build hook (Trunk.toml) on the staging directory; does nothing for a
// debug build, so `trunk serve` and the browser-test runner never get a worker.
// Usage: node scripts/sw-manifest.cjs [DIR]   (default: $TRUNK_STAGING_DIR)
//
// BUILD is a hash of every file's name and bytes: any change makes a new
// worker, which replaces the old cache (see assets/sw.js).
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('sw-manifest: name the build directory (or run as a Trunk hook)');
  process.exit(2);
}
if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const source = path.join(__dirname, '..', 'assets', 'sw.js');
const skip = (name) => name === 'sw.js' || name.endsWith('.gz') || name.endsWith('.br') || name.startsWith('.');
function walk(d, prefix = '') {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    if (skip(e.name)) return [];
    const rel = prefix + e.name;
    return e.isDirectory() ? walk(path.join(d, e.name), rel + '/') : [rel];
  }).sort();
}

const indexPath = path.join(dir, 'index.html');
let index = fs.readFileSync(indexPath, 'utf8')
  // Idempotent: a second run over the same directory replaces its own marks.
  .replace(/\n?<meta name="checkpoint-lab-build"[^>]*>/, '')
  .replace(/\n?<script id="sw-register">[\s\S]*?<\/script>/, '');
fs.writeFileSync(indexPath, index);

const files = walk(dir);
const hash = crypto.createHash('sha256');
for (const f of files) hash.update(f + '\0').update(fs.readFileSync(path.join(dir, f)));
const build = hash.digest('hex').slice(0, 16);

const register = `<script id="sw-register">
// Service workers need a secure context: https, or localhost / 127.0.0.1.
if ('serviceWorker' in navigator && isSecureContext) {
  addEventListener('load', () => navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('offline cache unavailable:', e)));
}
</script>`;
index = index
  .replace('</head>', `<meta name="checkpoint-lab-build" content="${build}">\n</head>`)
  .replace('</body>', `${register}\n</body>`);
fs.writeFileSync(indexPath, index);

const worker = fs.readFileSync(source, 'utf8')
  .replace('__BUILD__', build)
  .replace('__FILES__', JSON.stringify(['./', ...files], null, 2));
fs.writeFileSync(path.join(dir, 'sw.js'), worker);
console.error(`sw-manifest: build ${build}, ${files.length} files cached for offline use`);
