// The package as a user gets it: `npm pack`'s tarball installed offline in an empty folder,
// imported by name, answering from a directory.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tables } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));

test('the packed tarball installs offline in an empty folder and probes there', () => {
  const work = mkdtempSync(join(tmpdir(), 'jtb-pack-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = execFileSync(npm, ['pack', '--pack-destination', work, '--json'], {
      cwd: join(here, '..'),
      encoding: 'utf8',
    });
    const [{ filename, files }] = JSON.parse(packed);
    const names = files.map((f) => f.path).sort();
    assert.deepStrictEqual(names, ['README.md', 'index.d.ts', 'index.js', 'package.json', 'pkg/jtb.js', 'pkg/jtb_bg.wasm', 'sources.js']);
    const app = join(work, 'app');
    mkdirSync(app);
    execFileSync(npm, ['init', '-y'], { cwd: app, stdio: 'ignore' });
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', join(work, filename)], { cwd: app, stdio: 'ignore' });
    writeFileSync(
      join(app, 'probe.mjs'),
      `import { openTablebase } from 'jungle-tablebase';
       const tb = await openTablebase(process.argv[2]);
       console.log(JSON.stringify(await tb.probe('mistboard', '7/7/7/7/7/3l3/7/3E3/7 r')));`,
    );
    const answer = JSON.parse(execFileSync(process.execPath, ['probe.mjs', tables()], { cwd: app, encoding: 'utf8' }));
    assert.equal(answer.wdl, 'win');
    assert.equal(answer.best, 'd2d3');
    assert.ok(readdirSync(join(app, 'node_modules', 'jungle-tablebase', 'pkg')).includes('jtb_bg.wasm'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
