// The page's service worker: after one visit the page and every
// lesson's data come from this cache, so a class whose Wi-Fi drops keeps
// teaching. scripts/sw-manifest.cjs fills BUILD and FILES in at the end of a
// release build (a Trunk post_build hook); debug builds get no service worker.
// A new release has a new BUILD, so the browser installs this worker again,
// the new cache is filled before it takes over, and the old one is deleted.
const BUILD = '__BUILD__';
const FILES = __FILES__;
const CACHE = `checkpoint-lab-${BUILD}`;

self.addEventListener('install', (event) => {
  // `reload` skips the HTTP cache, so a new release never caches an old file.
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((k) => k.startsWith('checkpoint-lab-') && k !== CACHE).map((k) => caches.delete(k)),
      ))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'build') event.source.postMessage({ build: BUILD });
});

// Cache first: every file of a release is immutable (the wasm, JS and CSS carry
// Trunk's content hash, the lesson data the manifest's), so a cached copy is
// never stale within its release. A page navigation (any query or fragment)
// is answered with the cached index.html.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // A live class's calls and its event stream go straight to the server: a
  // stream held open through this worker would keep it busy, and a new release's
  // worker would wait for it to end before taking over.
  if (url.pathname.startsWith('/api/')) return;
  const key = request.mode === 'navigate' ? './' : request;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(key, { ignoreSearch: request.mode === 'navigate' }))
      .then((hit) => hit || fetch(request)),
  );
});
