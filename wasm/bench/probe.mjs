// The package's probe against the native library, side by side in one run, and what a table's
// first probe reads from a static host.
//
//   node bench/probe.mjs TABLES [RULES] [MATERIAL-POSITION]
//
// 1. Cached WDL probes of the same texts (random positions reached from the position given, by
//    default a mistboard 4-piece one): natively (the `native_probe` example: the same edge,
//    the text parsed and probed), then in Node through `probeWdl`, every block cached in both.
// 2. From a static Range server started here: for each of 40 tables, a fresh tablebase's first
//    probe of one of its positions: the requests and bytes it took (the rule set's listing
//    apart).

import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { openTablebase } from '../index.js';
import { random, staticServer } from '../test/support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [tables, rules = 'mistboard', start = '7/5e1/7/7/7/7/t6/5R1/L6 r'] = process.argv.slice(2);
if (!tables) {
  console.error('usage: node bench/probe.mjs TABLES [RULES] [POSITION]');
  process.exit(2);
}

const tb = await openTablebase(tables, { cacheBytes: 64 << 20 });
// Positions reached by random moves from `start` (captures into smaller tables included).
const rnd = random(5);
const texts = new Set();
for (let game = 0; texts.size < 5000 && game < 2000; game++) {
  let text = start;
  for (let ply = 0; ply < 40 && text; ply++) {
    const moves = (await tb.moves(rules, text)).moves.filter((m) => m.position);
    const wdl = await tb.probeWdl(rules, text).catch(() => null);
    if (wdl !== null) texts.add(text);
    text = moves.length ? moves[Math.floor(rnd() * moves.length)].position : null;
  }
}
const list = [...texts];
const work = mkdtempSync(join(tmpdir(), 'jtb-bench-'));
const file = join(work, 'texts');
writeFileSync(file, list.join('\n'));

const rounds = 40;
const native = JSON.parse(
  execFileSync(
    'cargo',
    ['run', '-q', '--release', '-p', 'jtb-wasm', '--example', 'native_probe', '--', tables, rules, file, String(rounds)],
    { cwd: join(here, '..', '..'), encoding: 'utf8' },
  ),
);
for (const t of list) await tb.probeWdl(rules, t); // every block cached
// The best of three timings (of `rounds` rounds each, after one to warm the JIT), as the
// native side's one timing follows its own warm-up round.
let sum = 0;
const timing = async () => {
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const t of list) sum += await tb.probeWdl(rules, t);
  return Number(process.hrtime.bigint() - t0) / (rounds * list.length);
};
await timing();
const node = Math.min(await timing(), await timing(), await timing());
console.log(`cached WDL probe of ${list.length} ${rules} texts, ${rounds} rounds:`);
console.log(`  native (parse + probe):      ${native.text_ns.toFixed(0)} ns (probe of a parsed position: ${native.position_ns.toFixed(0)} ns)`);
console.log(`  Node, probeWdl (text):       ${node.toFixed(0)} ns  = ${(node / native.text_ns).toFixed(2)}x native  (checksum ${sum})`);

// Positions of 4 pieces placed at random (those the parser refuses skipped), for tables of
// many materials.
const scattered = [];
if (rules === 'mistboard') {
  const animals = 'RCDWPTLE';
  for (let tries = 0; scattered.length < 400 && tries < 100000; tries++) {
    const board = Array.from({ length: 9 }, () => Array(7).fill(null));
    const pieces = [0, 1, 2, 3].map((i) => {
      const a = animals[Math.floor(rnd() * 8)];
      return i < 2 || (i === 2 && rnd() < 0.5) ? a : a.toLowerCase();
    });
    let ok = true;
    for (const p of pieces) {
      const [r, f] = [Math.floor(rnd() * 9), Math.floor(rnd() * 7)];
      if (board[r][f]) ok = false;
      board[r][f] = p;
    }
    if (!ok) continue;
    const text = `${board.map((rank) => rank.map((p) => p ?? '1').join('').replace(/1+/g, (m) => String(m.length))).join('/')} r`;
    if (await tb.moves(rules, text).then(() => true, () => false)) scattered.push(text);
  }
}

const host = await staticServer(tables);
const firsts = [];
const seen = new Set();
for (const text of [...scattered, ...list]) {
  if (firsts.length >= 40) break;
  const fresh = await openTablebase(host.url);
  await fresh.moves(rules, text);
  host.requests.length = 0;
  await fresh.probeWdl(rules, text);
  const made = host.requests.filter((r) => !r.path.endsWith('/'));
  const table = made[0]?.path;
  fresh.close();
  if (!table || seen.has(table)) continue;
  seen.add(table);
  firsts.push({ table, requests: made.length, bytes: made.reduce((n, r) => n + r.bytes, 0) });
}
tb.close();
await host.stop();
rmSync(work, { recursive: true, force: true });
const most = (k) => Math.max(...firsts.map((f) => f[k]));
console.log(`first probe of a table from a static host (${firsts.length} tables): at most ${most('requests')} requests and ${(most('bytes') / 1024).toFixed(1)} KiB`);
for (const f of firsts.slice(0, 5)) console.log(`  ${f.table}: ${f.requests} requests, ${(f.bytes / 1024).toFixed(1)} KiB`);
