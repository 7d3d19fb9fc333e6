// Lesson data and wording on demand: the page's wasm is built without the
// compiled-in lesson data and wording (the `bundled` feature off); this Trunk
// post_build hook writes them next to it, each file under a name carrying a
// hash of its bytes (Trunk hashes only what it builds, not copied files, and a
// new release must never be served a stale cached file), and puts into
// index.html, as <script id="lab-data" type="application/json">:
//   files:  "scenarios/pv-count.json" -> "data/scenarios/pv-count.<hash>.json"
//           (also tours/<lesson>.json, java/<Fragment>.java, the interview
//           drill's drill/questions.json and the wording, i18n/<file>.json,
//           the glossary as i18n/glossary.json, the exporter's wording as
//           i18n/export.json)
//   titles: every lesson's title (the lesson menu lists them all at once)
//   inline: the first lesson's scenario and tour and the wording the first
//           screen reads (FIRST_SCREEN below), so the first render waits for
//           no fetch and shows no missing text.
// src/data.rs reads it. Runs for every profile (debug builds fetch too), before
// scripts/sw-manifest.cjs, which then precaches the data files with the rest.
// Usage: node scripts/data-manifest.cjs [DIR]   (default: $TRUNK_STAGING_DIR)
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const root = path.join(__dirname, '..');
const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('data-manifest: name the build directory (or run as a Trunk hook)');
  process.exit(2);
}
const fail = (why) => {
  console.error(`data-manifest: ${why}`);
  process.exit(1);
};

// The lesson the page opens first (src/playback.rs), whose data is inlined.
const playback = fs.readFileSync(path.join(root, 'src', 'playback.rs'), 'utf8');
const first = (playback.match(/pub const DEFAULT_SCENARIO: &str = "([^"]+)";/) || [])[1];
if (!first) fail('src/playback.rs has no `pub const DEFAULT_SCENARIO: &str = "…";`');

const sources = [
  ['scenarios', path.join(root, 'crates', 'engine', 'scenarios'), '.json'],
  ['tours', path.join(root, 'assets', 'tours'), '.json'],
  ['java', path.join(root, 'crates', 'engine', 'src', 'export', 'java'), '.java'],
  ['drill', path.join(root, 'assets', 'drill'), '.json'],
];
// The wording files the page reads (src/i18n.rs, `books`), and those the first
// screen needs, inlined: the interface, the narration, the lesson tools, the
// Flink tab's name and the storage tab's notes. The drill's wording comes with
// its questions and the glossary when it opens (or in idle time before).
const i18n = path.join(root, 'assets', 'i18n');
const WORDING = [
  ['ui.json', i18n], ['narration.json', i18n], ['lessons.json', i18n], ['flink.json', i18n],
  ['extras.json', i18n], ['drill.json', i18n], ['glossary.json', path.join(root, 'assets')],
  // The exported Java's comments, fetched with the Java fragments (src/data.rs, java_files).
  ['export.json', path.join(root, 'crates', 'engine', 'src', 'export', 'flink')],
  // The presenter window's labels (inlined: the top bar's button names itself
  // with them), every lesson's teaching notes and the ready-made class plans.
  ['presenter.json', path.join(root, 'assets', 'presenter')],
  ['notes.json', path.join(root, 'assets', 'presenter')],
  ['plans.json', path.join(root, 'assets', 'presenter')],
];
const FIRST_SCREEN = new Set(['ui.json', 'narration.json', 'lessons.json', 'flink.json', 'extras.json', 'presenter.json']);

const out = path.join(dir, 'data');
fs.rmSync(out, { recursive: true, force: true });
const files = {};
const titles = {};
const inline = {};
const listed = sources.map(([kind, from, ext]) => [
  kind, ext, fs.readdirSync(from).filter((f) => f.endsWith(ext)).sort().map((n) => [n, from]),
]);
listed.push(['i18n', '.json', WORDING]);
for (const [kind, ext, names] of listed) {
  fs.mkdirSync(path.join(out, kind), { recursive: true });
  for (const [name, from] of names) {
    const bytes = fs.readFileSync(path.join(from, name));
    const stem = name.slice(0, -ext.length);
    const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    const url = `data/${kind}/${stem}.${hash}${ext}`;
    fs.writeFileSync(path.join(dir, url), bytes);
    const key = `${kind}/${name}`;
    files[key] = url;
    if (ext === '.json') {
      let doc;
      try {
        doc = JSON.parse(bytes.toString('utf8'));
      } catch (e) {
        fail(`${path.relative(root, path.join(from, name))}: ${e.message}`);
      }
      if (kind === 'scenarios' && doc.title) titles[stem] = doc.title;
    }
    if (stem === first && kind !== 'java' && kind !== 'i18n') inline[key] = bytes.toString('utf8');
    if (kind === 'i18n' && FIRST_SCREEN.has(name)) inline[key] = bytes.toString('utf8');
  }
}
if (!inline[`scenarios/${first}.json`]) fail(`the first lesson ${first} has no crates/engine/scenarios/${first}.json`);

// `<\/` keeps a `</script>` inside a string from closing the element.
const json = JSON.stringify({ files, titles, inline }).replace(/<\//g, '<\\/');
const indexPath = path.join(dir, 'index.html');
const index = fs.readFileSync(indexPath, 'utf8')
  .replace(/\n?<script id="lab-data"[\s\S]*?<\/script>/, '') // idempotent
  .replace('</head>', `<script id="lab-data" type="application/json">${json}</script>\n</head>`);
fs.writeFileSync(indexPath, index);
console.error(`data-manifest: ${Object.keys(files).length} data files, ${first} inlined (${json.length} bytes)`);
