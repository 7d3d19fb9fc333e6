// The page's first frame in dist/index.html: the default lesson's job graph at
// t = 0 inside the page's shell, rendered natively by src/bin/first_frame.rs from
// the app's own drawing code (src/first_frame.rs says what it shows and why),
// so a class sees the graph as soon as index.html and the stylesheet are in,
// while the wasm is still downloading. The app replaces it when it mounts
// (src/main.rs empties #app first).
//
// A Trunk post_build hook of release builds, after data-manifest.cjs and before
// sw-manifest.cjs (which then hashes the finished index.html); debug builds
// (`trunk serve`) skip it. Idempotent. It also puts a small script at the top of
// <head>: it chooses the language as the app will (src/i18n.rs `detect` and
// `Lang::from_tag`: `?lang=`, then the browser's language, then English; Chinese
// is Traditional for the script Hant or, without a script, the regions TW, HK and
// MO) and shows that frame, but
// only for the page as it opens by default: an address naming another lesson, a
// moment, a view or a shared run (any parameter but `lang`, or a #fragment)
// keeps the "loading" note, since the frame would show the wrong graph — unless
// the classroom server drew that address's moment in its place
// (crates/classroom/src/linked.rs marks the html element data-linked-frame).
// Usage: node scripts/first-frame.cjs [DIR]   (default: $TRUNK_STAGING_DIR)
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('first-frame: name the build directory (or run as a Trunk hook)');
  process.exit(2);
}
if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== 'release') process.exit(0);
const root = path.join(__dirname, '..');
const fail = (why) => {
  console.error(`first-frame: ${why}`);
  process.exit(1);
};

// Natively, in the default (debug) profile: a few seconds when the native tests
// have built the crate already, and the output does not depend on the profile.
const run = (...args) => {
  try {
    return execFileSync('cargo', ['run', '--quiet', '--bin', 'first_frame', '--', ...args], {
      cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 << 20,
    }).trim();
  } catch (e) {
    return fail(`src/bin/first_frame.rs failed (${e.status ?? e.message})`);
  }
};
const frames = run();
// The palette's colours (the app keeps this <style id="palette"> instead of adding its own).
const palette = run('--palette');
if (!frames.includes('class="operator__name"')) fail('the frame draws no operator');

const chooser = `<script id="first-frame-lang">
// The first frame (scripts/first-frame.cjs): this page's language as the app
// will choose it, and the frame only for the page as it opens by default.
(function () {
  // The classroom server draws a linked moment's frame (crates/classroom/src/linked.rs)
  // and gives the html element data-linked-frame: the moment's parameters match it.
  var html = document.documentElement, lang = null, other = false;
  var linked = html.hasAttribute('data-linked-frame'), shared = location.hash.length > 1;
  var tag = function (t) {
    var sub = String(t || '').trim().toLowerCase().split(/[-_]/);
    if (sub[0] === 'en') return 'en';
    if (sub[0] !== 'zh') return null;
    for (var i = 1; i < sub.length; i++) {
      if (sub[i] === 'hant' || sub[i] === 'tw' || sub[i] === 'hk' || sub[i] === 'mo') return 'zh-Hant';
      if (sub[i] === 'hans') return 'zh';
    }
    return 'zh';
  };
  location.search.slice(1).split('&').forEach(function (pair) {
    if (!pair) return;
    var eq = pair.indexOf('=');
    if (eq >= 0 && pair.slice(0, eq) === 'lang') lang = lang || tag(pair.slice(eq + 1));
    else other = true;
  });
  lang = lang || tag(navigator.language) || 'en';
  html.lang = lang === 'zh' ? 'zh-CN' : lang;
  if (!shared && (!other || linked)) html.setAttribute('data-first-frame', lang);
})();
</script>`;

const indexPath = path.join(dir, 'index.html');
let index = fs.readFileSync(indexPath, 'utf8')
  .replace(/\n?<script id="first-frame-lang">[\s\S]*?<\/script>/, '')
  .replace(/\n?<!-- first-frame -->[\s\S]*?<!-- \/first-frame -->/, '')
  .replace(/\n?<style id="palette">[\s\S]*?<\/style>/, '');
const app = '<div id="app">';
if (!index.includes(app)) fail('index.html has no <div id="app">');
if (!/<meta name="viewport"[^>]*>/.test(index)) fail('index.html has no viewport meta');
index = index
  .replace(/(<meta name="viewport"[^>]*>)/, `$1\n${chooser}`)
  .replace('</head>', `${palette}\n</head>`)
  .replace(app, `${app}\n<!-- first-frame -->${frames}<!-- /first-frame -->`);
fs.writeFileSync(indexPath, index);
console.error(`first-frame: ${frames.length} bytes of first frame in index.html`);
