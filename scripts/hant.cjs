#!/usr/bin/env node
// Generates the page's Traditional Chinese (zh-Hant) from its Simplified Chinese.
//
//   node scripts/hant.cjs          writes a "zh-Hant" member beside every "zh"
//                                  member of the text files and a `//@zh-Hant`
//                                  line after every `//@zh` line of the Java
//   node scripts/hant.cjs --check  changes nothing; exits 1 and names each text
//                                  whose zh-Hant is missing or stale
//
// The conversion is OpenCC's cn → tw with Taiwan phrases (npm's opencc-js,
// installed by scripts/setup.sh: 程序→程式, 内存→記憶體, 默认→預設), after the
// reviewed term list assets/i18n/hant-terms.json: `terms` fix the Flink terms
// the learners' notes use (算子 stays 算子, not Taiwan's 運算元 = operand), and
// `overrides` give a whole text by hand where the conversion cannot be fixed by
// a term. “…” become 「…」. Hong Kong reads the same text. Latin text (Flink identifiers, code)
// is never touched: OpenCC converts only Chinese characters.
//
// The files are edited as text, not re-serialised, so their formatting stays:
// "zh-Hant" goes right after "zh", on its own line where "zh" is on its own
// line, inline where it is inline. Re-running it after a zh edit rewrites only
// the texts whose zh changed.
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const TERMS_FILE = 'assets/i18n/hant-terms.json';

let OpenCC;
try {
  OpenCC = require('opencc-js');
} catch (e) {
  console.error('hant: opencc-js is missing; `source scripts/setup.sh` installs it (NODE_PATH)');
  process.exit(2);
}

/** The text files: every JSON file with "zh" members the page or the engine reads. */
function jsonFiles() {
  const dir = (d, keep = () => true) =>
    fs.readdirSync(path.join(ROOT, d))
      .filter((f) => f.endsWith('.json') && keep(f))
      .sort()
      .map((f) => `${d}/${f}`);
  return [
    ...dir('assets/i18n', (f) => `assets/i18n/${f}` !== TERMS_FILE),
    ...dir('assets/tours'),
    ...dir('assets/drill'),
    'assets/glossary.json',
    ...dir('assets/presenter'),
    ...dir('crates/engine/scenarios'),
    // The exporter's wording (the comments of the exported Java).
    'crates/engine/src/export/flink/export.json',
  ];
}

/** The exporter's Java fragments: a `//@zh-Hant` line after each `//@zh` line. */
function javaFiles() {
  const d = 'crates/engine/src/export/java';
  return fs.readdirSync(path.join(ROOT, d)).filter((f) => f.endsWith('.java')).sort().map((f) => `${d}/${f}`);
}

// ---------------------------------------------------------------- conversion

function loadTerms() {
  const raw = JSON.parse(fs.readFileSync(path.join(ROOT, TERMS_FILE), 'utf8'));
  const problem = (what) => {
    console.error(`hant: ${TERMS_FILE}: ${what}`);
    process.exit(2);
  };
  const terms = raw.terms || [];
  const overrides = raw.overrides || [];
  terms.forEach((t, i) => {
    if (typeof t.from !== 'string' || !t.from || typeof t.to !== 'string' || !t.to) {
      problem(`terms[${i}] needs "from" and "to" (non-empty strings)`);
    }
    if (typeof t.why !== 'string' || !t.why.trim()) problem(`terms[${i}] ("${t.from}") needs a "why"`);
  });
  overrides.forEach((o, i) => {
    if (typeof o.zh !== 'string' || typeof o['zh-Hant'] !== 'string' || !o['zh-Hant'].trim()) {
      problem(`overrides[${i}] needs "zh" and a non-empty "zh-Hant"`);
    }
  });
  return {
    // Longest first, so a term inside a longer one does not split it.
    terms: [...terms].sort((a, b) => b.from.length - a.from.length),
    overrides: new Map(overrides.map((o) => [o.zh, o['zh-Hant']])),
  };
}

const { terms, overrides } = loadTerms();
const cnToTw = OpenCC.Converter({ from: 'cn', to: 'twp' });
// Private-use characters stand in for the fixed terms while OpenCC runs.
const PLACEHOLDER = 0xe000;

/** The Traditional text for `zh`. */
function convert(zh) {
  if (overrides.has(zh)) return overrides.get(zh);
  let text = zh;
  terms.forEach((t, i) => {
    text = text.split(t.from).join(String.fromCharCode(PLACEHOLDER + i));
  });
  // Taiwan quotes with corner brackets: “…” → 「…」.
  text = cnToTw(text).replace(/“/g, '「').replace(/”/g, '」');
  terms.forEach((t, i) => {
    text = text.split(String.fromCharCode(PLACEHOLDER + i)).join(t.to);
  });
  return text;
}

// ---------------------------------------------------------------- JSON as text

/**
 * Parses `src` enough to know where each object's members are: calls
 * `onObject(members)` for every object, a member being { key, keyStart, valueStart,
 * valueEnd, before } where `before` is the whitespace before the key.
 */
function scanJson(src, file, onObject) {
  let i = 0;
  const fail = (what) => {
    throw new Error(`${file}: ${what} at offset ${i}`);
  };
  const ws = () => {
    const start = i;
    while (i < src.length && ' \t\r\n'.includes(src[i])) i++;
    return src.slice(start, i);
  };
  const string = () => {
    if (src[i] !== '"') fail('expected a string');
    i++;
    while (src[i] !== '"') {
      if (i >= src.length) fail('unterminated string');
      i += src[i] === '\\' ? 2 : 1;
    }
    i++;
  };
  const value = () => {
    const c = src[i];
    if (c === '{') {
      i++;
      const members = [];
      let before = ws();
      if (src[i] === '}') {
        i++;
        onObject(members);
        return;
      }
      for (;;) {
        const keyStart = i;
        string();
        const key = JSON.parse(src.slice(keyStart, i));
        ws();
        if (src[i] !== ':') fail('expected :');
        i++;
        ws();
        const valueStart = i;
        value();
        members.push({ key, keyStart, valueStart, valueEnd: i, before });
        ws();
        if (src[i] === ',') {
          i++;
          before = ws();
        } else if (src[i] === '}') {
          i++;
          break;
        } else fail('expected , or }');
      }
      onObject(members);
    } else if (c === '[') {
      i++;
      ws();
      if (src[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (src[i] === ',') {
          i++;
          ws();
        } else if (src[i] === ']') {
          i++;
          break;
        } else fail('expected , or ]');
      }
    } else if (c === '"') {
      string();
    } else {
      const m = /^(-?[0-9.eE+-]+|true|false|null)/.exec(src.slice(i, i + 64));
      if (!m) fail('unexpected character');
      i += m[0].length;
    }
  };
  ws();
  value();
  ws();
  if (i !== src.length) fail('trailing text');
}

/** An inline JSON array of strings in the files' style: `["a", "b"]`. */
const inlineArray = (items) => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;

/**
 * The file's text with every zh-Hant member present and current, and the
 * problems a --check reports ({ what, where }).
 */
function regenerateJson(src, file) {
  const edits = [];
  const problems = [];
  const lineOf = (pos) => src.slice(0, pos).split('\n').length;
  // One sibling member: `name` beside `anchor`, with the value `text` (raw JSON).
  const ensure = (members, anchor, name, want, sameAs) => {
    const existing = members.find((m) => m.key === name);
    if (existing) {
      const have = JSON.parse(src.slice(existing.valueStart, existing.valueEnd));
      if (!sameAs(have)) {
        edits.push({ at: existing.valueStart, drop: existing.valueEnd - existing.valueStart, put: want });
        problems.push(`${file}:${lineOf(existing.keyStart)}: stale "${name}"`);
      }
      return;
    }
    const sep = anchor.before.includes('\n') ? `,${anchor.before}` : ', ';
    edits.push({ at: anchor.valueEnd, drop: 0, put: `${sep}${JSON.stringify(name)}: ${want}` });
    problems.push(`${file}:${lineOf(anchor.keyStart)}: no "${name}" beside "${anchor.key}"`);
  };
  scanJson(src, file, (members) => {
    const zh = members.find((m) => m.key === 'zh');
    if (!zh) return;
    const zhValue = JSON.parse(src.slice(zh.valueStart, zh.valueEnd));
    if (typeof zhValue !== 'string') return;
    const hant = convert(zhValue);
    ensure(members, zh, 'zh-Hant', JSON.stringify(hant), (have) => have === hant);
    // The term file's avoid lists, converted, without the canonical term itself.
    const avoid = members.find((m) => m.key === 'avoid');
    if (avoid) {
      const list = JSON.parse(src.slice(avoid.valueStart, avoid.valueEnd));
      const want = [...new Set(list.map(convert))].filter((v) => v !== hant);
      ensure(members, avoid, 'avoid-Hant', inlineArray(want), (have) => JSON.stringify(have) === JSON.stringify(want));
    }
  });
  edits.sort((a, b) => b.at - a.at);
  let out = src;
  for (const e of edits) out = out.slice(0, e.at) + e.put + out.slice(e.at + e.drop);
  return { out, problems };
}

// ---------------------------------------------------------------- Java and Rust

function regenerateJava(src, file) {
  const problems = [];
  const lines = src.split('\n');
  const out = [];
  lines.forEach((line, n) => {
    if (/^\s*\/\/@zh-Hant/.test(line)) return;
    out.push(line);
    const m = /^(\s*)\/\/@zh(?![-\w])(.*)$/.exec(line);
    if (m) {
      const want = `${m[1]}//@zh-Hant${convert(m[2])}`;
      if (lines[n + 1] !== want) problems.push(`${file}:${n + 1}: no current //@zh-Hant line after //@zh`);
      out.push(want);
    }
  });
  const result = out.join('\n');
  if (result !== src && problems.length === 0) problems.push(`${file}: a //@zh-Hant line without its //@zh`);
  return { out: result, problems };
}

// ---------------------------------------------------------------- main

function main() {
  const check = process.argv.includes('--check');
  const unknown = process.argv.slice(2).filter((a) => a !== '--check');
  if (unknown.length) {
    console.error(`hant: unknown argument ${unknown.join(' ')} (only --check)`);
    process.exit(2);
  }
  const results = [];
  for (const file of jsonFiles()) {
    const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
    results.push({ file, src, ...regenerateJson(src, file) });
  }
  for (const file of javaFiles()) {
    const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
    results.push({ file, src, ...regenerateJava(src, file) });
  }
  const changed = results.filter((r) => r.out !== r.src);
  if (check) {
    if (changed.length === 0) {
      console.log(`hant: ${results.length} files, every zh-Hant current`);
      return;
    }
    const problems = changed.flatMap((r) => r.problems);
    problems.slice(0, 40).forEach((p) => console.error(`hant: ${p}`));
    if (problems.length > 40) console.error(`hant: … and ${problems.length - 40} more`);
    console.error(`hant: ${changed.length} files out of date; run \`node scripts/hant.cjs\``);
    process.exit(1);
  }
  for (const r of changed) fs.writeFileSync(path.join(ROOT, r.file), r.out);
  console.log(`hant: ${changed.length} of ${results.length} files written`);
}

if (require.main === module) main();

module.exports = { convert, regenerateJson, regenerateJava };
