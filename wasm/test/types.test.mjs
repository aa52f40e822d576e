// The package's types: a program using every public name type-checks under `tsc --strict`,
// and index.d.ts names what index.js exports.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as pkg from '../index.js';

const here = dirname(fileURLToPath(import.meta.url));

test('a program using every public name type-checks under tsc --strict', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
});

test('the declarations name every export, and only those', () => {
  const declared = [...readFileSync(join(here, '..', 'index.d.ts'), 'utf8').matchAll(/^export (?:declare )?(?:class|function|const) (\w+)/gm)].map((m) => m[1]);
  assert.deepStrictEqual(declared.sort(), Object.keys(pkg).sort());
});
