// The package against `jtb serve` and `jtb probe`: the same answers, from a directory and from
// a static host read by Range requests, for positions of every game.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openTablebase } from '../index.js';
import { RULE_SETS, apiAnswer, jtbBin, positions, serve, settled, staticServer, tables } from './support.mjs';

/** Positions compared per rule set from the directory (and a quarter of them from the host). */
const PER_RULES = Number(process.env.JTB_WASM_POSITIONS ?? 400);

let dir;
let api;
let host;
let local;
const sample = {};

before(async () => {
  dir = tables();
  api = await serve(dir);
  host = await staticServer(dir);
  local = await openTablebase(dir);
  for (const [i, rules] of RULE_SETS.entries()) {
    sample[rules] = await positions(local, api.url, rules, PER_RULES, i + 1);
  }
});

after(async () => {
  local?.close();
  api?.stop();
  await host?.stop();
});

/** Compares the package's probe with the API on `texts`, with lines for every tenth. */
async function compare(tb, rules, texts) {
  for (const [i, text] of texts.entries()) {
    const line = i % 10 === 0;
    const expected = await apiAnswer(api.url, rules, line ? '/line' : '', text);
    const got = await settled(tb.probe(rules, text, { line }));
    assert.deepStrictEqual(got, expected, `${rules} ${text}${line ? ' (line)' : ''}`);
  }
}

for (const rules of RULE_SETS) {
  test(`${rules}: every answer is the HTTP API's, from a directory`, async () => {
    assert.ok(sample[rules].length >= PER_RULES / 2, `${sample[rules].length} positions`);
    if (rules === 'flip4x4') {
      const hidden = sample[rules].filter((t) => t.includes('?')).length;
      assert.ok(hidden >= PER_RULES / 4, `${hidden} positions with face-down tiles`);
    }
    await compare(local, rules, sample[rules]);
  });
}

test('every game from a static host by Range requests', async () => {
  const tb = await openTablebase(host.url);
  for (const rules of RULE_SETS) {
    await compare(tb, rules, sample[rules].slice(0, Math.ceil(PER_RULES / 4)));
  }
  const ranged = host.requests.filter((r) => r.path.endsWith('.dtm') || r.path.endsWith('.wdl'));
  assert.ok(ranged.length > 0 && ranged.every((r) => r.range !== null), 'table files read by range');
  tb.close();
});

test("a host without Range support, read whole files at a time where the caller prefers so", async () => {
  const plain = await staticServer(dir, { ranges: false });
  const tb = await openTablebase(plain.url, { ranges: 'preferred' });
  for (const rules of RULE_SETS) {
    await compare(tb, rules, sample[rules].slice(0, 40));
  }
  const files = plain.requests.filter((r) => !r.path.endsWith('/')).map((r) => r.path);
  assert.equal(new Set(files).size, files.length, 'each file fetched once');
  tb.close();
  await plain.stop();
});

test("an engine's questions agree with jtb probe and jtb adjudicate", async () => {
  for (const rules of ['mistboard', 'clesto', 'animal-gambit', 'flip4x4']) {
    const texts = [];
    for (const text of sample[rules]) {
      if (texts.length >= 60) break;
      if (!text.includes('?') && !(await settled(local.probe(rules, text))).error) texts.push(text);
    }
    const run = (command) =>
      execFileSync(jtbBin(), [command, '--tables', dir, '--rules', rules, '--json', '-'], {
        input: texts.join('\n'),
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const probed = run('probe');
    const adjudicated = run('adjudicate');
    for (const [i, text] of texts.entries()) {
      const p = probed[i];
      const wdl = { win: 1, draw: 0, loss: -1 }[p.wdl];
      assert.equal(await local.probeWdl(rules, text), wdl, `${rules} ${text} wdl`);
      // A draw's distance is 0; a position the repetition ban decides has none.
      const dtm = p.wdl === 'draw' ? 0 : p.dtm === null ? null : p.wdl === 'loss' ? -p.dtm : p.dtm;
      assert.equal(await local.probeDtm(rules, text), dtm, `${rules} ${text} dtm`);
      assert.equal(await local.bestMove(rules, text), p.best ?? null, `${rules} ${text} best`);
      assert.deepStrictEqual(await local.adjudicate(rules, text), adjudicated[i], `${rules} ${text} adjudicate`);
    }
  }
});
