// What a probe reads and keeps: the block cache's bound, fetches shared between concurrent
// probes, and the few small range requests of a table's first probe.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { openTablebase } from '../index.js';
import { positions, serve, staticServer, tables } from './support.mjs';

let host;
let api;

before(async () => {
  host = await staticServer(tables());
  api = await serve(tables());
});

after(async () => {
  api?.stop();
  await host?.stop();
});

test('the bounds of the decoded blocks and of the fetched bytes hold', async () => {
  const cacheBytes = 96 << 10;
  const fetchedBytes = 64 << 10;
  const tb = await openTablebase(tables(), { cacheBytes, fetchedBytes });
  let most = 0;
  for (const rules of ['mistboard', 'flip4x4', 'clesto', 'animal-gambit']) {
    for (const text of await positions(tb, api.url, rules, 150, 7)) {
      await tb.probe(rules, text).catch(() => null);
      const stats = tb.stats();
      assert.equal(stats.cache_bound, cacheBytes);
      for (const cache of stats.caches) {
        assert.ok(cache.bytes <= cacheBytes, `${cache.name}: ${cache.bytes} bytes of blocks after ${text}`);
        most = Math.max(most, cache.bytes);
      }
      assert.ok(stats.fetched_bytes <= fetchedBytes, `${stats.fetched_bytes} bytes fetched after ${text}`);
    }
  }
  // The bound was reached, so it was what held the cache back.
  assert.ok(most > cacheBytes / 2, `the cache held at most ${most} bytes`);
  tb.close();
});

test('concurrent probes needing the same blocks fetch each once', async () => {
  const tb = await openTablebase(host.url);
  const before = host.requests.length;
  const text = '7/7/7/7/6w/7/6R/7/E6 r';
  const answers = await Promise.all(Array.from({ length: 16 }, () => tb.probe('mistboard', text)));
  assert.ok(answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0])));
  const asked = host.requests.slice(before).map((r) => `${r.path} ${r.range}`);
  assert.equal(new Set(asked).size, asked.length, `requests made twice:\n${asked.join('\n')}`);
  tb.close();
});

test("a table's first probe reads its header and a block in at most 3 requests and 64 KiB", async () => {
  for (const [rules, text, file] of [
    ['mistboard', '7/7/7/7/6w/7/6R/7/E6 r', 'mistboard/ERvW.wdl'],
    ['clesto', '1r5/1c5/7/7/7/7/7/7/6D b', null],
    ['animal-gambit', '8/8/8/8/1r6/8/4R3/4C3 g', null],
  ]) {
    const tb = await openTablebase(host.url);
    host.requests.length = 0;
    await tb.probeWdl(rules, text);
    // The rule set's listing aside (once for all its tables).
    const made = host.requests.filter((r) => !r.path.endsWith('/'));
    const bytes = made.reduce((n, r) => n + r.bytes, 0);
    assert.ok(made.length <= 3, `${rules}: ${made.length} requests: ${made.map((r) => `${r.path} ${r.range}`)}`);
    assert.ok(bytes <= 64 << 10, `${rules}: ${bytes} bytes`);
    if (file) assert.ok(made.every((r) => r.path.endsWith(file)), made.map((r) => r.path).join(' '));
    tb.close();
  }
});
