// What the package's tests share: the jtb program, a table set, `jtb serve` over it, and a
// static file server with Range support (the kind of host the package reads tables from).

import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync, createReadStream, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every rule set, as `jtb serve` names them. */
export const RULE_SETS = ['mistboard', 'tiger-lengthwise', 'leiden', 'flip4x4', 'clesto', 'animal-gambit'];

/** The jtb program: `JTB_BIN`, else the workspace's newer build (release or debug). */
export function jtbBin() {
  if (process.env.JTB_BIN) return process.env.JTB_BIN;
  const built = ['release', 'debug']
    .map((profile) => join(repo, 'target', profile, 'jtb'))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!built.length) throw new Error('no jtb program: build it (cargo build -p jtb) or set JTB_BIN');
  return built[0];
}

let made;

/** A table set of every rule set up to three pieces: `JTB_TEST_TABLES`, else made once with
 * `jtb gen` in a temporary folder (removed when the process exits). */
export function tables() {
  if (process.env.JTB_TEST_TABLES) return process.env.JTB_TEST_TABLES;
  if (made) return made;
  made = mkdtempSync(join(tmpdir(), 'jtb-wasm-'));
  process.on('exit', () => rmSync(made, { recursive: true, force: true }));
  for (const rules of RULE_SETS) {
    execFileSync(jtbBin(), ['gen', '--rules', rules, '--max-pieces', '3', '--out', made], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return made;
}

/** `jtb serve` over `dir` on a free port: its base URL and a function that stops it. */
export async function serve(dir) {
  const child = spawn(jtbBin(), ['serve', '--tables', dir, '--addr', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`jtb serve exited (${code}): ${out}`)));
  });
  return { url, stop: () => child.kill() };
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

/**
 * A static file server over `dir`, as a plain static host: GET and HEAD, single byte ranges
 * (206, 416), a folder answered by its `index.html` or a listing of its files. With `ranges:
 * false` it ignores Range headers (200 with the whole file), as some hosts do. Every request's
 * path and the bytes it was sent are recorded in `requests`; `fail` makes it fail requests.
 */
export async function staticServer(dir, { ranges = true } = {}) {
  const requests = [];
  const host = {
    requests,
    /** A request for which it answers this status instead (`(record) => status or null`). */
    fail: () => null,
  };
  const server = createServer((req, res) => {
    const record = { method: req.method, path: req.url, range: req.headers.range ?? null, bytes: 0 };
    requests.push(record);
    const failed = host.fail(record);
    if (failed) {
      res.writeHead(failed, { 'content-type': 'text/plain' });
      return res.end('failed');
    }
    const url = new URL(req.url, 'http://host');
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    const file = join(dir, rel);
    if (rel.split(sep).includes('..') || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    let path = file;
    if (statSync(file).isDirectory()) {
      if (!url.pathname.endsWith('/')) {
        res.writeHead(301, { location: `${url.pathname}/` });
        return res.end();
      }
      path = join(file, 'index.html');
      if (!existsSync(path)) {
        const links = readdirSync(file).map((n) => `<a href="${encodeURIComponent(n)}">${n}</a>`);
        const page = `<!doctype html><title>${rel}</title>${links.join('\n')}`;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        record.bytes = page.length;
        return res.end(page);
      }
    }
    const size = statSync(path).size;
    const type = TYPES[extname(path)] ?? 'application/octet-stream';
    const m = ranges && /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (m) {
      const first = Number(m[1]);
      const last = Math.min(m[2] === '' ? size - 1 : Number(m[2]), size - 1);
      if (first >= size || last < first) {
        res.writeHead(416, { 'content-range': `bytes */${size}` });
        return res.end();
      }
      res.writeHead(206, {
        'content-type': type,
        'content-length': last - first + 1,
        'content-range': `bytes ${first}-${last}/${size}`,
        'accept-ranges': 'bytes',
      });
      record.bytes = last - first + 1;
      if (req.method === 'HEAD') return res.end();
      return createReadStream(path, { start: first, end: last }).pipe(res);
    }
    res.writeHead(200, { 'content-type': type, 'content-length': size, 'accept-ranges': ranges ? 'bytes' : 'none' });
    if (req.method === 'HEAD') return res.end();
    record.bytes = size;
    createReadStream(path).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  host.url = `http://127.0.0.1:${port}/`;
  host.stop = () => new Promise((resolve) => server.close(resolve));
  return host;
}

/** A seeded random number generator (mulberry32), so that a failure can be replayed. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Positions of `rules` reached by random games from the longest wins of every table (the
 * server's material index), flips included (an outcome drawn at random): `count` distinct
 * position texts.
 */
export async function positions(tb, api, rules, count, seed = 1) {
  const index = await (await fetch(`${api}/api/v1/${rules}/materials`)).json();
  const seeds = index.tables.flatMap((t) => t.longest_win_position ?? []).filter(Boolean);
  const rnd = random(seed);
  if (rules === 'flip4x4') {
    // Face-down tiles: each longest win with one or two of its animals turned face down (the
    // revealed seeds and these as many).
    const hidden = seeds.map((text) => {
      const [board, side] = text.split(' ');
      const cells = [...board];
      const animals = cells.flatMap((c, i) => (/[a-zA-Z]/.test(c) ? [i] : []));
      const down = animals.filter(() => rnd() < 0.5).slice(0, 2);
      if (!down.length) down.push(animals[0]);
      const set = down.map((i) => cells[i]).sort().join('');
      for (const i of down) cells[i] = '?';
      return `${cells.join('')} ${side} 0 ?:${set}`;
    });
    seeds.push(...hidden, '4/2cE/2?1/4 r 34 ?:P', '4/2c1/2?1/1?2 r 3 ?:PE', '?3/4/1?2/2D1 b 0 ?:lR');
  }
  const found = new Set();
  // A third of the flip game's positions with face-down tiles: from the seeds that have them,
  // those positions kept alone.
  const hiddenSeeds = seeds.filter((t) => t.includes('?'));
  for (let tries = 0; hiddenSeeds.length && found.size < count / 3 && tries < count * 20; tries++) {
    let text = hiddenSeeds[Math.floor(rnd() * hiddenSeeds.length)];
    for (let ply = 0; ply < 12 && text?.includes('?'); ply++) {
      found.add(text);
      const moves = await tb.moves(rules, text);
      const steps = moves.moves.map((m) => m.position).filter(Boolean);
      const flips = moves.flip_outcomes.flatMap((f) => f.outcomes.map((o) => o.position));
      const next = flips.length && (!steps.length || rnd() < 0.25) ? flips : steps;
      text = next.length ? next[Math.floor(rnd() * next.length)] : null;
    }
  }
  for (let tries = 0; found.size < count && tries < count * 20; tries++) {
    let text = seeds[Math.floor(rnd() * seeds.length)];
    for (let ply = 0; ply < 12 && text; ply++) {
      found.add(text);
      const moves = await tb.moves(rules, text);
      const steps = (moves.moves ?? moves.turns ?? []).map((m) => m.position).filter(Boolean);
      const flips = (moves.flip_outcomes ?? []).flatMap((f) => f.outcomes.map((o) => o.position));
      // A flip one move in four, so that face-down tiles stay a while.
      const next = flips.length && (!steps.length || rnd() < 0.25) ? flips : steps;
      text = next.length ? next[Math.floor(rnd() * next.length)] : null;
    }
  }
  return [...found].slice(0, count);
}

/** The HTTP API's answer of `route` (`''` or `'/line'`) for a position: its JSON, or its error as
 * `{ error, code, status }`. */
export async function apiAnswer(api, rules, route, text) {
  const response = await fetch(`${api}/api/v1/${rules}${route}?position=${encodeURIComponent(text)}`);
  const json = await response.json();
  return response.ok ? json : { ...json, status: response.status };
}

/** What a probe answered: its value, or its error in the API's shape. */
export async function settled(promise) {
  try {
    return await promise;
  } catch (e) {
    if (e.code === undefined) throw e;
    return { error: e.message, code: e.code, status: e.status };
  }
}
