// Timing helpers for the measuring scripts: cold pages under Chromium's own CPU
// and network throttling (the DevTools protocol, as DevTools' presets do it),
// requestAnimationFrame intervals while playing, and the marks of a load (first
// render, interactive, a linked moment on screen) taken inside the page.
'use strict';

// Network profiles: throughput in bytes/s, latency the extra delay per request in
// ms (what Network.emulateNetworkConditions calls latency, roughly an RTT).
const NETWORKS = {
  wifi: { downloadThroughput: 2e6 / 8, uploadThroughput: 1e6 / 8, latency: 40 },
  '3g': { downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8, latency: 150 },
};

// A page in a fresh browser context (empty HTTP cache, no service worker) at
// 1280×720, with the CPU slowed `cpu` times and, if named, a network profile.
// `bytes.total` sums what arrived over the wire (encodedDataLength: compressed
// bodies and headers), `bytes.requests` counts the responses.
async function coldPage(browser, { cpu = 1, network } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const bytes = { total: 0, requests: 0 };
  cdp.on('Network.loadingFinished', (e) => { bytes.total += e.encodedDataLength; bytes.requests++; });
  await cdp.send('Network.enable');
  if (network) {
    if (!NETWORKS[network]) throw new Error(`no network profile ${network}`);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORKS[network] });
  }
  await throttleCpu(cdp, cpu);
  return { context, page, cdp, bytes };
}

const throttleCpu = (cdp, rate) => cdp.send('Emulation.setCPUThrottlingRate', { rate });

// requestAnimationFrame intervals over `ms` of the page's life, or until
// `selector` (if given) no longer matches: e.g. the play button's pressed state,
// so that a lesson that ends early does not add an idle page's frames. The first
// callback's interval is dropped (it measures from the call, not from a frame).
// Returns the intervals and the time they cover.
async function frameIntervals(page, ms, selector) {
  const gaps = await page.evaluate(([ms, selector]) => new Promise((resolve) => {
    const gaps = [];
    let last = performance.now();
    const end = last + ms;
    const frame = (now) => {
      gaps.push(now - last);
      last = now;
      if (now < end && (!selector || document.querySelector(selector))) requestAnimationFrame(frame);
      else resolve(gaps);
    };
    requestAnimationFrame(frame);
  }), [ms, selector]);
  const kept = gaps.slice(1);
  return { gaps: kept, ms: kept.reduce((a, b) => a + b, 0) };
}

// The value below which a share `p` of `xs` lies (nearest rank).
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null;
}

function median(xs) {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Runs in the page before its scripts (page.addInitScript(loadMarks, want)) and
// fills window.__marks with performance.now() times, i.e. ms from navigation start:
//   firstRender  the first `.operator__name` with text in the document;
//   clicked      with want.play: the moment `#play` is there and enabled, when it
//                is clicked from inside the page (a click from the test driver
//                would add its own round trips and actionability waits);
//   interactive  the clock advanced after that click: `#clock`'s text changed or
//                the stage's `data-now` grew;
//   moment       with want.moment {scenario, step}: that lesson's operator names
//                are drawn and `#clock` stands at that engine step;
//   graph        with want.moment: that lesson's graph is on screen (an operator
//                name with a box), the classroom server's first frame or the app's.
// Mutation callbacks run before the next paint, so each mark is the frame it shows in.
function loadMarks(want) {
  const m = (window.__marks = { clicks: 0 });
  const clock = () => document.querySelector('#clock');
  const stageNow = () => Number((document.querySelector('.stage[data-now]') || { dataset: {} }).dataset.now || 0);
  const named = () => [...document.querySelectorAll('.operator__name')].some((n) => n.textContent.trim());
  let before;
  const click = (play) => {
    before = { clock: clock() ? clock().textContent : '', now: stageNow() };
    m.clicks++;
    play.click();
  };
  const check = () => {
    if (m.firstRender === undefined && named()) m.firstRender = performance.now();
    if (want.play) {
      const play = document.querySelector('#play');
      if (m.clicked === undefined && play && !play.disabled) {
        m.clicked = performance.now();
        click(play);
        // A click that started nothing (the page not listening yet) is repeated.
        const retry = setInterval(() => {
          if (m.interactive !== undefined) clearInterval(retry);
          else if (play.getAttribute('aria-pressed') !== 'true' && !play.disabled) click(play);
        }, 2000);
      }
      if (m.clicked !== undefined && m.interactive === undefined
          && ((clock() && clock().textContent !== before.clock) || stageNow() > before.now)) {
        m.interactive = performance.now();
      }
    }
    if (want.moment && m.graph === undefined) {
      const n = want.moment.scenario;
      const names = document.querySelectorAll(`.stage[data-first-frame="${n}"] .operator__name, .stage[data-scenario="${n}"] .operator__name`);
      if ([...names].some((t) => t.getBoundingClientRect().width > 0)) m.graph = performance.now();
    }
    if (want.moment && m.moment === undefined && named()) {
      const select = document.querySelector('#scenario-select');
      if ((!select || select.value === want.moment.scenario)
          && clock() && clock().dataset.step === String(want.moment.step)) m.moment = performance.now();
    }
  };
  const done = () => m.firstRender !== undefined && (!want.play || m.interactive !== undefined)
    && (!want.moment || m.moment !== undefined);
  const observer = new MutationObserver(() => { check(); if (done()) observer.disconnect(); });
  observer.observe(document, {
    childList: true, subtree: true, characterData: true,
    attributes: true, attributeFilter: ['data-now', 'data-step', 'disabled', 'aria-pressed'],
  });
}

module.exports = { NETWORKS, coldPage, throttleCpu, frameIntervals, percentile, median, loadMarks };
