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

// ---------------------------------------------------------------------------
// What the browser rendered of the stage (runs in the page: pass it to
// page.evaluate). The client rects of the stage's SVG and HTML text, checked for
//   - overprint: two texts whose glyphs overlap, canvas labels over each other,
//     a lane, a record or an SVG text (the canvas labels' boxes confirmed by a
//     pixel probe);
//   - a border through text: a drawn box's edge through a text's glyphs;
//   - clipping: a text outside the stage (and the window, unless
//     `opts.wholeStage`: a phone's stage is taller than its screen), or an HTML
//     text cut short by its box;
//   - the scrubber's markers covering one another (unless `opts.markers === false`);
// and the values drawn (marks, chips, transactions) for a comparison with the
// engine. Used by key-moments.cjs and phone-graph.cjs.
module.exports.stageAudit = function audit(opts) {
  opts = opts || {};
  const stage = document.querySelector('.stage');
  if (!stage) return null;
  const vp = stage.querySelector('.stage__viewport') || stage;
  const frame = vp.getBoundingClientRect();
  const clipTo = opts.wholeStage ? frame : {
    left: Math.max(frame.left, 0),
    top: Math.max(frame.top, 0),
    right: Math.min(frame.right, innerWidth),
    bottom: Math.min(frame.bottom, innerHeight),
  };
  const visible = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || +cs.opacity < 0.05) return false;
      if (e.classList && e.classList.contains('visually-hidden')) return false;
    }
    return true;
  };
  const texts = [];
  // SVG texts: one box per <text> (its tspans are inside it).
  for (const t of stage.querySelectorAll('svg text')) {
    const s = t.textContent.trim();
    if (!s || !visible(t)) continue;
    const b = t.getBoundingClientRect();
    if (b.width < 1 || b.height < 1) continue;
    texts.push({ s, b, el: t, kind: t.getAttribute('class') || t.parentElement.getAttribute('class') || 'text' });
  }
  // HTML texts: the line boxes of each text node.
  const walker = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.textContent.trim();
    if (!s || n.parentElement.closest('svg') || !visible(n.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const b of range.getClientRects()) {
      if (b.width < 1 || b.height < 1) continue;
      texts.push({ s, b, el: n.parentElement, kind: n.parentElement.className || 'html' });
    }
  }
  const name = (x) => `"${x.s.length > 40 ? x.s.slice(0, 39) + '…' : x.s}"`;
  const issues = [];
  // Overprint: glyphs overlap (a text box includes the font's leading, so the
  // vertical overlap must exceed a third of the smaller line).
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i], c = texts[j];
      if (a.el === c.el || a.el.contains(c.el) || c.el.contains(a.el)) continue;
      const ix = Math.min(a.b.right, c.b.right) - Math.max(a.b.left, c.b.left);
      const iy = Math.min(a.b.bottom, c.b.bottom) - Math.max(a.b.top, c.b.top);
      if (ix > 1.5 && iy > 0.34 * Math.min(a.b.height, c.b.height)) {
        issues.push(`overprint: ${name(a)} / ${name(c)}`);
      }
    }
  }
  // Borders through text: a stroked box's edge inside a text's glyph band.
  const borders = [];
  for (const r of stage.querySelectorAll('svg rect')) {
    if (!visible(r)) continue;
    const cs = getComputedStyle(r);
    if (cs.stroke === 'none' || parseFloat(cs.strokeWidth) <= 0 || +cs.strokeOpacity < 0.2) continue;
    const b = r.getBoundingClientRect();
    if (b.width < 4 || b.height < 4) continue;
    borders.push({ b, el: r, what: r.getAttribute('class') || r.parentElement.getAttribute('class') || 'box' });
  }
  for (const x of texts) {
    // The glyph band: without the ascent above cap height and the descent.
    const g = { left: x.b.left + 1, right: x.b.right - 1, top: x.b.top + 0.2 * x.b.height, bottom: x.b.bottom - 0.22 * x.b.height };
    for (const r of borders) {
      const b = r.b;
      const radius = 6;
      const hOverlap = Math.min(g.right, b.right - radius) - Math.max(g.left, b.left + radius);
      const vOverlap = Math.min(g.bottom, b.bottom - radius) - Math.max(g.top, b.top + radius);
      const crossesH = [b.top, b.bottom].some((y) => y > g.top && y < g.bottom) && hOverlap > 2;
      const crossesV = [b.left, b.right].some((xx) => xx > g.left && xx < g.right) && vOverlap > 0.3 * (g.bottom - g.top);
      if (crossesH || crossesV) issues.push(`border: ${r.what} through ${name(x)}`);
    }
    // Clipping: outside the stage (or the window).
    if (x.b.left < clipTo.left - 1 || x.b.right > clipTo.right + 1 || x.b.top < clipTo.top - 1 || x.b.bottom > clipTo.bottom + 1) {
      issues.push(`clipped: ${name(x)} outside the stage`);
    }
  }
  // HTML text cut short by its box (an ellipsis or overflow: hidden).
  for (const el of stage.querySelectorAll('*')) {
    if (el.closest('svg') || !el.textContent.trim() || !visible(el)) continue;
    const cs = getComputedStyle(el);
    const hides = cs.overflowX === 'hidden' || cs.overflowX === 'clip' || cs.textOverflow === 'ellipsis';
    if (hides && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      issues.push(`clipped: "${el.textContent.trim().slice(0, 40)}" cut short by its box`);
    }
  }
  // Values, for the engine comparison.
  const marks = [...stage.querySelectorAll('.lane__state')].flatMap((t) => {
    const snap = t.querySelector('.lane__state-snap');
    if (!snap) return [];
    const m = snap.textContent.match(/([✓⤴])\s*chk-(\d+)/);
    if (!m) return [];
    const values = t.textContent.replace(snap.textContent, '');
    return [{ lane: t.closest('.lane').dataset.lane, checkpoint: +m[2], done: m[1] === '✓', values }];
  });
  const chips = [...stage.querySelectorAll('.flow')].map((g) => ({
    checkpoint: +g.dataset.checkpoint,
    direction: g.dataset.flow,
    task: g.dataset.task,
    text: g.dataset.text,
  }));
  const txns = [];
  for (const g of stage.querySelectorAll('.lane__txn')) {
    const m = g.textContent.match(/T(\d+)/);
    if (m) txns.push({ lane: g.closest('.lane').dataset.lane, id: +m[1], status: g.dataset.txnStatus });
  }
  const words = { open: ['open', '开启', '写入中'], 'pre-committed': ['pre-committed', '预提交', '已预提交'] };
  for (const t of stage.querySelectorAll('.lane__state')) {
    const lane = t.closest('.lane').dataset.lane;
    for (const m of t.textContent.matchAll(/(\S+)\s+T(\d+)/g)) {
      const status = Object.keys(words).find((k) => words[k].includes(m[1]));
      if (status) txns.push({ lane, id: +m[2], status });
    }
  }
  const scene = document.querySelector('.scene');
  const canvas = scene ? { pairs: +scene.dataset.labelOverlaps || 0, on: +scene.dataset.labelsOnObstacles || 0 } : { pairs: 0, on: 0 };
  if (canvas.pairs) issues.push(`overprint: ${canvas.pairs} pairs of canvas labels`);
  if (canvas.on) issues.push(`overprint: ${canvas.on} canvas labels on a lane or record`);
  // The canvas's marks (records, barriers' bars): the page's count of pairs that
  // overlap, and its first boxes, probed for paint and measured against each
  // other here (so the count is not taken on trust).
  const markPairs = scene ? +scene.dataset.markOverlaps || 0 : 0;
  if (markPairs) issues.push(`overprint: ${markPairs} pairs of records or barriers on the canvas`);
  const markBoxes = scene ? (scene.dataset.markBoxes || '').split(';').filter(Boolean).map((b) => b.split(',').map(Number)) : [];
  for (let i = 0; i < markBoxes.length; i++) {
    for (let j = i + 1; j < markBoxes.length; j++) {
      const [a, b] = [markBoxes[i], markBoxes[j]];
      const ix = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
      const iy = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
      if (ix > 1 && iy > 1) issues.push('overprint: two marks on the canvas (their boxes overlap)');
    }
  }
  // The canvas labels' boxes as the page exposes them, checked two ways: a pixel
  // probe of the canvas inside each box (the label is painted there, so the box
  // is true), then each box against the SVG's rendered texts (no overprint).
  const svg = scene && scene.querySelector('svg');
  const paper = scene && scene.querySelector('canvas');
  const boxes = scene ? (scene.dataset.labelBoxes || '').split(';').filter(Boolean).map((b) => b.split(',').map(Number)) : [];
  let probed = 0;
  let probedMarks = 0;
  if (svg && paper && boxes.length && paper.width > 0) {
    const m = svg.getScreenCTM();
    const at = (x, y) => ({ x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f });
    const c = paper.getBoundingClientRect();
    const ctx = paper.getContext('2d');
    const kx = paper.width / c.width;
    const ky = paper.height / c.height;
    for (const [x, y, w, h] of boxes) {
      const p = at(x, y);
      const q = at(x + w, y + h);
      const b = { left: p.x, top: p.y, right: q.x, bottom: q.y };
      const px = Math.max(0, Math.floor((b.left - c.left) * kx));
      const py = Math.max(0, Math.floor((b.top - c.top) * ky));
      const pw = Math.min(paper.width - px, Math.ceil((b.right - b.left) * kx));
      const ph = Math.min(paper.height - py, Math.ceil((b.bottom - b.top) * ky));
      if (pw < 1 || ph < 1) continue;
      const data = ctx.getImageData(px, py, pw, ph).data;
      let ink = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 40) ink++;
      probed++;
      if (ink < 0.04 * pw * ph) {
        issues.push(`canvas label: its box (${Math.round(b.left)},${Math.round(b.top)}) holds no painted label`);
        continue;
      }
      for (const t of texts) {
        const ix = Math.min(b.right, t.b.right) - Math.max(b.left, t.b.left);
        const iy = Math.min(b.bottom, t.b.bottom) - Math.max(b.top, t.b.top);
        if (ix > 1.5 && iy > 0.34 * Math.min(b.bottom - b.top, t.b.height)) {
          issues.push(`overprint: a canvas label / ${name(t)}`);
        }
      }
    }
  }
  // Each mark's box holds paint (the page's boxes are where the canvas drew).
  if (svg && paper && markBoxes.length && paper.width > 0) {
    const m = svg.getScreenCTM();
    const c = paper.getBoundingClientRect();
    const ctx = paper.getContext('2d');
    const kx = paper.width / c.width;
    const ky = paper.height / c.height;
    for (const [x, y, w, h] of markBoxes) {
      const px = Math.max(0, Math.floor((m.a * x + m.e - c.left) * kx));
      const py = Math.max(0, Math.floor((m.d * y + m.f - c.top) * ky));
      const pw = Math.min(paper.width - px, Math.ceil(m.a * w * kx));
      const ph = Math.min(paper.height - py, Math.ceil(m.d * h * ky));
      if (pw < 1 || ph < 1) continue;
      const data = ctx.getImageData(px, py, pw, ph).data;
      let ink = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 40) ink++;
      probedMarks++;
      if (ink < 0.2 * pw * ph) issues.push(`canvas mark: its box (${Math.round(x)},${Math.round(y)}) holds no painted record or barrier`);
    }
  }
  // The scrubber's markers (✓n, ✕n, ⚡) under the stage: none covers another's label.
  const markers = opts.markers === false ? [] : [...document.querySelectorAll('.scrubber__markers .marker')]
    .map((m) => ({ r: m.getBoundingClientRect(), text: m.textContent.trim() }))
    .filter((m) => m.r.width > 0);
  for (let i = 0; i < markers.length; i++) {
    for (let j = i + 1; j < markers.length; j++) {
      const [a, b] = [markers[i].r, markers[j].r];
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) {
        issues.push(`overprint: timeline markers "${markers[i].text}" and "${markers[j].text}"`);
      }
    }
  }
  const uids = [...document.querySelectorAll('.operator')].map((o) => ({ op: o.dataset.op, uid: o.dataset.uid || o.dataset.op }));
  const clock = document.querySelector('#clock');
  return { now: +stage.dataset.now, step: clock ? clock.dataset.step : '', texts: texts.length, issues, marks, chips, txns, uids, probed, probedMarks };
};

// Used by text-floors.cjs and presenter.cjs (in the page: page.evaluate(textSizes)).
/** Every visible text in the viewport: its kind (a class path) and its rendered px. */
module.exports.textSizes = function textSizes() {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  const onScreen = (b) => b.width > 0 && b.height > 0 && b.right > 0 && b.bottom > 0 && b.left < vw && b.top < vh;
  const shown = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || +cs.opacity < 0.05) return false;
      if (e.classList && e.classList.contains('visually-hidden')) return false;
    }
    return true;
  };
  const kind = (el) => {
    const parts = [];
    for (let e = el; e && parts.length < 2 && e !== document.body; e = e.parentElement) {
      const c = typeof e.className === 'string' ? e.className : (e.className && e.className.baseVal) || '';
      const first = c.split(/\s+/).filter(Boolean)[0];
      parts.unshift(first ? `${e.tagName.toLowerCase()}.${first}` : e.tagName.toLowerCase());
    }
    return parts.join(' > ');
  };
  // HTML: elements with a text node of their own.
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    if (!['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)
      && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) {
      const b = el.getBoundingClientRect();
      if (!onScreen(b) || !shown(el)) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      out.push({ kind: kind(el), px, text: el.textContent.trim().slice(0, 30) });
    }
  }
  // SVG texts: font size times the on-screen scale.
  for (const t of document.querySelectorAll('svg text')) {
    const b = t.getBoundingClientRect();
    if (!onScreen(b) || !shown(t) || !t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    const scale = m ? Math.hypot(m.a, m.b) : 1;
    out.push({ kind: kind(t), px: parseFloat(getComputedStyle(t).fontSize) * scale, text: t.textContent.trim().slice(0, 30) });
  }
  // Canvas labels: their boxes, as the scene exposes them, in SVG units.
  for (const scene of document.querySelectorAll('.scene')) {
    const svg = scene.querySelector('svg');
    if (!svg) continue;
    const m = svg.getScreenCTM();
    const boxes = (scene.dataset.labelBoxes || '').split(';').filter(Boolean).map((b) => b.split(',').map(Number));
    for (const [, , , h] of boxes) out.push({ kind: 'canvas label (box height)', px: h * Math.abs(m.d), text: '' });
  }
  return out;
};


// ---------------------------------------------------------------------------

// The built-in lessons, as the page's lesson menu lists them.
module.exports.lessonsOf = async function lessonsOf(page) {
  return page.$$eval('#scenario-select option', (os) => os.map((o) => o.value).filter(Boolean));
};

// Opens lesson `name` from the lesson menu and waits for its stage.
module.exports.chooseLesson = async function choose(page, name) {
  await page.selectOption('#scenario-select', name);
  // The stage of that lesson: a lesson not yet loaded keeps the last one's stage
  // on screen while its data is fetched.
  await page.waitForFunction((n) => document.querySelector('#scenario-select').value === n
    && document.querySelector(`.stage[data-now][data-scenario="${n}"]`), name);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await module.exports.settle(page, 40);
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

/** A free TCP port on 127.0.0.1. */
module.exports.freePort = () => new Promise((resolve) => {
  const s = require('net').createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});

/** The Rust classroom server (scripts/classroom-server.sh) on `dir` at 127.0.0.1:`port`,
 *  resolved once it says it serves: `{ child, out }` (its printed lines). */
module.exports.serveClassroom = (dir, port) => {
  const child = require('child_process').spawn('bash', [require('path').join(__dirname, 'classroom-server.sh'), dir, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ctrl-C')) resolve({ child, out });
    });
    child.on('exit', (code) => reject(new Error(`classroom server exited with ${code}: ${out}`)));
  });
};
