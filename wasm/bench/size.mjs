// The package's .wasm: its size raw and gzipped, and what takes the room: code bytes by crate
// (from the function names of the module cargo built, before wasm-bindgen strips them), and
// the data segments. `node bench/size.mjs` after `npm run build`.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const shipped = readFileSync(join(here, '..', 'pkg', 'jtb_bg.wasm'));
const target = process.env.CARGO_TARGET_DIR ?? join(here, '..', '..', 'target');
const built = readFileSync(join(target, 'wasm32-unknown-unknown', 'wasm', 'jtb_wasm.wasm'));

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`pkg/jtb_bg.wasm: ${kib(shipped.length)} raw, ${kib(gzipSync(shipped, { level: 9 }).length)} gzipped (gzip -9)`);

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

const sections = [];
for (let at = 8; at < built.length; ) {
  const id = built[at];
  const [size, start] = leb(built, at + 1);
  sections.push({ id, start, end: start + size });
  at = start + size;
}
const imports = (() => {
  const s = sections.find((x) => x.id === 2);
  if (!s) return 0;
  let [count, at] = leb(built, s.start);
  let functions = 0;
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 2; k++) {
      const [len, next] = leb(built, at);
      at = next + len;
    }
    const kind = built[at++];
    if (kind === 0) { functions++; at = leb(built, at)[1]; }
    else if (kind === 1) { at += 1; const [flags, n] = leb(built, at); at = leb(built, n)[1]; if (flags & 1) at = leb(built, at)[1]; }
    else if (kind === 2) { const [flags, n] = leb(built, at); at = leb(built, n)[1]; if (flags & 1) at = leb(built, at)[1]; }
    else if (kind === 3) { at += 2; }
  }
  return functions;
})();

// Function bodies' sizes, by index.
const code = sections.find((x) => x.id === 10);
const bodies = [];
{
  let [count, at] = leb(built, code.start);
  for (let i = 0; i < count; i++) {
    const [size, next] = leb(built, at);
    bodies.push(size);
    at = next + size;
  }
}
// Names from the `name` custom section.
const names = new Map();
for (const s of sections.filter((x) => x.id === 0)) {
  let [len, at] = leb(built, s.start);
  if (built.toString('utf8', at, at + len) !== 'name') continue;
  at += len;
  while (at < s.end) {
    const kind = built[at];
    const [size, start] = leb(built, at + 1);
    if (kind === 1) {
      let [count, p] = leb(built, start);
      for (let i = 0; i < count; i++) {
        const [index, q] = leb(built, p);
        const [n, r] = leb(built, q);
        names.set(index, built.toString('utf8', r, r + n));
        p = r + n;
      }
    }
    at = start + size;
  }
}

/** The crate a mangled Rust name is in (the first path component, or the type's crate in an
 * impl's `<T as Trait>`). */
function crateOf(name) {
  let m = /^_ZN(\d+)(.*)$/.exec(name);
  if (!m) return name.startsWith('__') || !name.includes('::') ? '(runtime and others)' : name.split('::')[0];
  const first = m[2].slice(0, Number(m[1]));
  const inner = /^_\$LT\$(?:\$RF\$)?(?:mut\$u20\$)?([a-z_0-9]+)\.\./.exec(first);
  if (inner) return inner[1];
  return first.startsWith("_$LT$") ? "(generic impls)" : first;
}

const byCrate = new Map();
bodies.forEach((size, i) => {
  const crate = crateOf(names.get(i + imports) ?? '');
  byCrate.set(crate, (byCrate.get(crate) ?? 0) + size);
});
const data = sections.filter((x) => x.id === 11).reduce((n, s) => n + s.end - s.start, 0);
const total = bodies.reduce((a, b) => a + b, 0);
console.log(`built module (cargo, names kept): code ${kib(total)}, data ${kib(data)}`);
for (const [crate, size] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, 14)) {
  console.log(`  ${crate.padEnd(24)} ${kib(size).padStart(10)}  ${((100 * size) / total).toFixed(1)}%`);
}
