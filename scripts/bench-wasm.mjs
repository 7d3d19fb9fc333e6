// Runs the engine's soak example compiled to wasm32-wasip1 under Node's WASI (V8,
// the same wasm engine as Chromium), to compare the engine's speed in wasm with
// native. Usage: bash scripts/bench.sh (builds both and runs them).
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv } from 'node:process';

const wasi = new WASI({ version: 'preview1', args: ['soak', argv[3] ?? '10000000', ...argv.slice(4)], env: {} });
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
wasi.start(instance);
