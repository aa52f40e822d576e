// Bad input, missing and damaged tables, hosts and sources that fail, a closed tablebase: each
// rejects with the HTTP API's message (or a clear one of its own), none hangs, and the
// tablebase answers on afterwards.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openTablebase, TablebaseError } from '../index.js';
import { apiAnswer, serve, settled, staticServer, tables } from './support.mjs';

const ERVW = '7/7/7/7/6w/7/6R/7/E6 r';
const LVE = '7/7/7/7/7/3l3/7/3E3/7 r';

let scratch;
let damaged;
let api;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'jtb-wasm-errors-'));
  // Mistboard alone, its ERvW table missing and its EvL DTM file damaged in its blocks.
  damaged = join(scratch, 'tables');
  cpSync(join(tables(), 'mistboard'), join(damaged, 'mistboard'), { recursive: true });
  for (const kind of ['dtm', 'wdl', 'dtc']) rmSync(join(damaged, 'mistboard', `ERvW.${kind}`));
  const file = join(damaged, 'mistboard', 'EvL.dtm');
  const bytes = readFileSync(file);
  bytes.fill(0x55, bytes.length - Math.floor((bytes.length - 1024) / 2), bytes.length - 8);
  writeFileSync(file, bytes);
  api = await serve(damaged);
});

after(async () => {
  api?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('errors are the HTTP API\'s: bad text, unknown rules, missing and damaged tables', async () => {
  const tb = await openTablebase(damaged);
  const cases = [
    ['mistboard', 'garbage'],
    ['mistboard', '7/7/7/7/7/7/7/7/7 r'],
    ['mistboard', `${LVE} ${'x'.repeat(300)}`],
    ['no-such-rules', LVE],
    ['mistboard', ERVW],
    ['mistboard', LVE],
    ['clesto', '1r5/1c5/7/7/7/7/7/7/6D b'],
    ['flip4x4', '4/2cE/2?1/4 r 34 ?:P'],
  ];
  for (const [rules, text] of cases) {
    const expected = await apiAnswer(api.url, rules, '', text);
    assert.ok(expected.error, `${rules} ${text}: the API refuses it`);
    assert.deepStrictEqual(await settled(tb.probe(rules, text)), expected, `${rules} ${text}`);
  }
  const damagedBlock = await settled(tb.probe('mistboard', LVE));
  assert.equal(damagedBlock.code, 'damaged-table');
  assert.match(damagedBlock.error, /mistboard\/EvL\.dtm/);
  // The tables still answer what they hold.
  assert.equal(typeof (await tb.probeWdl('mistboard', '7/7/7/7/7/3r3/7/3E3/7 r')), 'number');
  tb.close();
});

test('a set of WDL files alone answers as the API does, its notes naming the files it lacks', async () => {
  const wdl = join(scratch, 'wdl');
  cpSync(join(tables(), 'mistboard'), join(wdl, 'mistboard'), {
    recursive: true,
    filter: (path) => !/\.(dtm|dtc)$/.test(path),
  });
  const server = await serve(wdl);
  const tb = await openTablebase(wdl);
  for (const text of [LVE, ERVW, '7/7/7/7/7/3r3/7/3E3/7 r', '7/7/7/7/7/7/7/7/3E3 r']) {
    const expected = await apiAnswer(server.url, 'mistboard', '', text);
    assert.deepStrictEqual(await settled(tb.probe('mistboard', text)), expected, text);
    assert.equal(await tb.probeWdl('mistboard', text).catch((e) => e.code), expected.error ? expected.code : { win: 1, draw: 0, loss: -1 }[expected.wdl], text);
  }
  assert.match(JSON.stringify(await tb.probe('mistboard', LVE)), /missing/);
  tb.close();
  server.stop();
});

test('errors of the engine\'s questions are TablebaseErrors with the API\'s code', async () => {
  const tb = await openTablebase(tables());
  await assert.rejects(tb.probeWdl('flip4x4', '4/2cE/2?1/4 r 34 ?:P'), (e) => e instanceof TablebaseError && e.code === 'hidden-tiles');
  await assert.rejects(tb.probeDtm('mistboard', 'x'), (e) => e.code === 'bad-position' && e.status === 400);
  await assert.rejects(tb.bestMove('nope', LVE), (e) => e.code === 'unknown-rules' && e.status === 404);
  await assert.rejects(tb.adjudicate('mistboard', '7/7/7/7/7/7/7/7/3E3 r'), (e) => e.status === 400);
  await assert.rejects(tb.probe(1, 2), TypeError);
  tb.close();
});

test('a host without Range support is refused in words that say so', async () => {
  const host = await staticServer(tables(), { ranges: false });
  const tb = await openTablebase(host.url);
  await assert.rejects(tb.probe('mistboard', LVE), /mistboard\/EvL\.\w+: the host does not answer Range requests/);
  tb.close();
  await host.stop();
});

test('a host that is not there, or fails a range read, fails naming the file', async () => {
  const tb = await openTablebase('http://127.0.0.1:9/tables/');
  await assert.rejects(tb.probe('mistboard', LVE), /mistboard\/: the request failed/);
  tb.close();
  // A range read that fails.
  const host = await staticServer(tables());
  host.fail = (r) => (r.path.endsWith('/ERvW.dtm') && r.range ? 500 : null);
  const failing = await openTablebase(host.url);
  await assert.rejects(failing.probe('mistboard', ERVW), /mistboard\/ERvW\.dtm: HTTP 500 for bytes \d+-\d+/);
  host.fail = () => null;
  assert.equal((await failing.probe('mistboard', ERVW)).wdl, 'win', 'the same tablebase answers once the host does');
  failing.close();
  await host.stop();
});

test('a source that answers short or with no bytes is an error naming the file, never a value', async () => {
  const dir = tables();
  const honest = {
    list: (rules) => import('node:fs').then((fs) => fs.readdirSync(join(dir, rules))),
    size: (path) => statSync(join(dir, path)).size,
    read: (path, offset, length) => readFileSync(join(dir, path)).subarray(offset, offset + length),
  };
  const short = { ...honest, read: (path, offset, length) => honest.read(path, offset, length - 1) };
  const none = { ...honest, read: () => 'not bytes' };
  const failing = { ...honest, read: () => Promise.reject(new Error('disk on fire')) };
  const good = await openTablebase(honest);
  const expected = await good.probe('mistboard', LVE);
  assert.equal(expected.wdl, 'win');
  for (const [source, why] of [[short, /EvL\.\w+: short read/], [none, /EvL\.\w+: the source's read\(\) gave no bytes/], [failing, /EvL\.\w+: disk on fire/]]) {
    const tb = await openTablebase(source);
    await assert.rejects(tb.probe('mistboard', LVE), why);
    tb.close();
  }
  await assert.rejects(openTablebase({ read() {} }), /needs a list\(\) method/);
  await assert.rejects(openTablebase(42), TypeError);
  good.close();
});

test('a closed tablebase rejects, also a probe waiting on a fetch when it closed', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const dir = tables();
  const slow = {
    list: async (rules) => { await gate; return (await import('node:fs')).readdirSync(join(dir, rules)); },
    size: (path) => statSync(join(dir, path)).size,
    read: (path, offset, length) => readFileSync(join(dir, path)).subarray(offset, offset + length),
  };
  const tb = await openTablebase(slow);
  const waiting = tb.probe('mistboard', LVE);
  tb.close();
  release();
  await assert.rejects(waiting, /closed/);
  await assert.rejects(tb.probe('mistboard', LVE), /the tablebase is closed/);
  assert.throws(() => tb.stats(), /closed/);
  tb.close();
});
