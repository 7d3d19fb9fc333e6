// A classroom of thirty on one Wi-Fi: serves a release build with
// precompressed files, brotli or gzip by the browser's Accept-Encoding (the
// .br/.gz files are written next to the originals once, at start), so each
// phone downloads the compressed bytes only. Prints the URL and, for phones, a
// QR code of it in the terminal.
//
// Usage: node scripts/classroom-server.cjs DIR [--host ADDR|--lan] [--port N]
//   --lan   the machine's first non-loopback IPv4 address (scripts/serve.sh --classroom)
//   --host  an explicit address (the tests use 127.0.0.1 only)
'use strict';
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const dir = path.resolve(args[0] || 'dist');
const port = Number(opt('--port') || 8080);
if (!fs.existsSync(path.join(dir, 'index.html'))) {
  console.error(`classroom: ${dir} has no index.html — build the page first (trunk build --release)`);
  process.exit(2);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`classroom: --port must be a number from 0 to 65535, not ${opt('--port')}`);
  process.exit(2);
}

function lanAddress() {
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs || []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}
let host = opt('--host') || '127.0.0.1';
if (args.includes('--lan')) {
  host = lanAddress();
  if (!host) {
    console.error('classroom: this machine has no LAN address (no non-loopback IPv4); serving on 127.0.0.1');
    host = '127.0.0.1';
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.wasm', '.json', '.svg', '.txt']);

// Precompress once: brotli at its best quality, gzip -9. Kept only when smaller.
function walk(d) {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}
let raw = 0, br = 0, gz = 0;
for (const file of walk(dir)) {
  if (!COMPRESSIBLE.has(path.extname(file))) continue;
  const bytes = fs.readFileSync(file);
  const b = zlib.brotliCompressSync(bytes, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const g = zlib.gzipSync(bytes, { level: 9 });
  raw += bytes.length; br += Math.min(b.length, bytes.length); gz += Math.min(g.length, bytes.length);
  if (b.length < bytes.length) fs.writeFileSync(file + '.br', b); else fs.rmSync(file + '.br', { force: true });
  if (g.length < bytes.length) fs.writeFileSync(file + '.gz', g); else fs.rmSync(file + '.gz', { force: true });
}

const server = http.createServer((req, res) => {
  let rel;
  try {
    rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  } catch {
    res.writeHead(400).end('bad URL');
    return;
  }
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.join(dir, path.normalize(rel));
  if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  const ext = path.extname(file);
  const accept = String(req.headers['accept-encoding'] || '');
  const headers = {
    'Content-Type': TYPES[ext] || 'application/octet-stream',
    // index.html and sw.js name everything else; the rest carries a content hash.
    'Cache-Control': ['.html'].includes(ext) || rel.endsWith('/sw.js') ? 'no-cache' : 'public, max-age=31536000, immutable',
    'Vary': 'Accept-Encoding',
  };
  let body = file;
  if (/\bbr\b/.test(accept) && fs.existsSync(file + '.br')) {
    body = file + '.br';
    headers['Content-Encoding'] = 'br';
  } else if (/\bgzip\b/.test(accept) && fs.existsSync(file + '.gz')) {
    body = file + '.gz';
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = fs.statSync(body).size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') res.end(); else fs.createReadStream(body).pipe(res);
});

server.on('error', (e) => {
  console.error(`classroom: cannot serve on ${host}:${port}: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const url = `http://${host}:${server.address().port}/`;
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`checkpoint-lab for the classroom: ${url}`);
  console.log(`  ${kib(raw)} of page, sent as ${kib(br)} brotli / ${kib(gz)} gzip per student`);
  if (host !== '127.0.0.1' && host !== 'localhost') {
    console.log('  Note: over http on a LAN address browsers give the page no offline cache');
    console.log('  (service workers need https or localhost); students need this machine reachable.');
  }
  try {
    require('qrcode-terminal').generate(url, { small: true }, (qr) => console.log(qr));
  } catch {
    console.log('  (no QR code: qrcode-terminal is not installed — scripts/setup.sh installs it)');
  }
  console.log('Ctrl-C stops the server.');
});
