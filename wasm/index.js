// jungle-tablebase: the endgame tables of Jungle, the Mistboard flip game, Clesto and Animal
// Gambit, probed in the browser (a page or a Web Worker) and in Node, by the probe library
// compiled to WebAssembly. The tables are read a block at a time from a directory (Node), a
// static host (HTTP Range requests) or a byte source of the caller's; every answer is the one
// `jtb serve`'s HTTP API gives.

import initWasm, { Engine, initSync } from './pkg/jtb.js';
import { sourceOf } from './sources.js';

export { directorySource, urlSource } from './sources.js';

/** The default bound of each rule set's decoded blocks kept, in bytes. */
export const DEFAULT_CACHE_BYTES = 8 << 20;
/** The default bound of fetched bytes held before they are decoded, in bytes. */
export const DEFAULT_FETCHED_BYTES = 4 << 20;

/** Rounds of fetching one question may take before it is given up (a question needs a few). */
const MAX_ROUNDS = 200;

let ready;

/** Instantiates the WebAssembly once: read from the package's folder in Node, fetched beside
 * this module in a browser. */
function loadWasm() {
  ready ??= (async () => {
    const url = new URL('./pkg/jtb_bg.wasm', import.meta.url);
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      initSync({ module: await readFile(url) });
    } else {
      await initWasm({ module_or_path: url });
    }
  })();
  return ready;
}

/** An error of the tables, with the HTTP API's `code` and `status`. */
export class TablebaseError extends Error {
  constructor(message, code, status) {
    super(message);
    this.name = 'TablebaseError';
    this.code = code;
    this.status = status;
  }
}

/**
 * Opens the tables under `source`: a directory path (Node), a base URL (`http:`/`https:`,
 * tables laid out as `jtb gen` writes them, `URL/<rules>/<file>`, read with Range requests), or
 * a source object ({ list(rules), size(path), read(path, offset, length) }). Nothing is read
 * until the first probe.
 *
 * `options.ranges` `'preferred'` reads the files of a host that ignores Range requests whole,
 * where by default (`'required'`) such a host is refused.
 *
 * @param {string | URL | object} source
 * @param {{ cacheBytes?: number, fetchedBytes?: number, fetch?: typeof fetch, ranges?: string, wholeBytes?: number }} [options]
 * @returns {Promise<Tablebase>}
 */
export async function openTablebase(source, options = {}) {
  const resolved = await sourceOf(source, options);
  await loadWasm();
  return new Tablebase(resolved, options);
}

/** The tables of every rule set under one source. */
export class Tablebase {
  #engine;
  #source;
  #closed = false;
  /** Fetches in flight, by what they fetch: concurrent probes needing one block share it. */
  #inFlight = new Map();

  /** @internal use {@link openTablebase}. */
  constructor(source, options = {}) {
    this.#source = source;
    this.#engine = new Engine(
      options.cacheBytes ?? DEFAULT_CACHE_BYTES,
      options.fetchedBytes ?? DEFAULT_FETCHED_BYTES,
    );
  }

  /** What `GET /api/v1/{rules}?position=text` of `jtb serve` answers (with `{ line: true }`,
   * what `/api/v1/{rules}/line` answers). */
  probe(rules, text, { line = false } = {}) {
    return this.#ask(line ? 'line' : 'probe', rules, text);
  }

  /** Win (1), draw (0) or loss (-1) for the side to move, the clock rule aside. */
  probeWdl(rules, text) {
    // A cached probe answers at once, without a run's JSON.
    if (!this.#closed && typeof rules === 'string' && typeof text === 'string') {
      const now = this.#engine.wdl_now(rules, text);
      if (now !== 2) return Promise.resolve(now);
    }
    return this.#ask('wdl', rules, text);
  }

  /** The distance to mate for the side to move, signed (positive: it wins, negative: it
   * loses), in the game's unit (plies; Animal Gambit's turns); 0 for a draw; `null` where there
   * is none (a Clesto position decided by the repetition ban). */
  probeDtm(rules, text) {
    return this.#ask('dtm', rules, text);
  }

  /** The best move in the API's notation, or `null` where there is no move. */
  bestMove(rules, text) {
    return this.#ask('best-move', rules, text);
  }

  /** Whether the game may be stopped here and with what result (`jtb adjudicate --json`). */
  adjudicate(rules, text) {
    return this.#ask('adjudicate', rules, text);
  }

  /** The legal moves with the position after each (`/api/v1/{rules}/moves`); no tables
   * needed. */
  async moves(rules, text) {
    this.#open();
    return this.#done(this.#engine.moves(String(rules), String(text)));
  }

  /** Animal Gambit's turn played one step at a time (`/api/v1/{rules}/steps`); no tables
   * needed. */
  async steps(rules, text, steps = '') {
    this.#open();
    return this.#done(this.#engine.steps(String(rules), String(text), String(steps)));
  }

  #done(json) {
    const out = JSON.parse(json);
    if (out.error !== undefined) throw new TablebaseError(out.error, out.code, out.status);
    return out.ok;
  }

  /** What is held now: each rule set's decoded blocks (`caches`, each at most `cache_bound`
   * bytes; `cache_bytes` in all) and the fetched bytes not yet decoded (`fetched_bytes`). */
  stats() {
    this.#open();
    return JSON.parse(this.#engine.stats());
  }

  /** Frees the tables; later probes reject, and so do those still waiting on a fetch. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#engine.free();
    this.#inFlight.clear();
  }

  #open() {
    if (this.#closed) throw new TablebaseError('the tablebase is closed', 'closed', 0);
  }

  async #ask(question, rules, text) {
    this.#open();
    if (typeof rules !== 'string' || typeof text !== 'string') {
      throw new TypeError('a rule set and a position are strings');
    }
    let previous = '';
    for (let round = 0; round < MAX_ROUNDS; round++) {
      this.#open();
      let out;
      try {
        out = JSON.parse(this.#engine.run(question, rules, text));
      } catch (e) {
        // A trap of the WebAssembly (a bug): its memory can no longer be trusted.
        this.close();
        throw new TablebaseError(`the probe failed and the tablebase was closed: ${e.message}`, 'internal', 500);
      }
      if (out.needs === undefined) {
        if (out.error !== undefined) throw new TablebaseError(out.error, out.code, out.status);
        return out.ok;
      }
      const asked = JSON.stringify(out.needs);
      if (asked === previous) {
        throw new TablebaseError(
          `the bytes fetched for ${rules} ${text} were dropped before they were read: ` +
            'raise fetchedBytes',
          'internal',
          500,
        );
      }
      previous = asked;
      await Promise.all(out.needs.map((need) => this.#fetch(need)));
    }
    throw new TablebaseError(`no answer for ${text} after ${MAX_ROUNDS} rounds of fetches`, 'internal', 500);
  }

  /** Fetches what a run needs and supplies it, sharing a fetch already in flight. */
  #fetch(need) {
    const key = JSON.stringify(need);
    let pending = this.#inFlight.get(key);
    if (pending === undefined) {
      pending = this.#supply(need).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  async #supply(need) {
    const source = this.#source;
    if (need.list !== undefined) {
      const names = await source.list(need.list);
      this.#open();
      this.#engine.supply_listing(need.list, names === null ? undefined : names.join('\n'));
    } else if (need.head !== undefined) {
      const head = await source.head(need.head, need.length);
      this.#open();
      if (head === null) {
        this.#engine.supply_size(need.head, undefined);
      } else {
        this.#engine.supply_size(need.head, head.size);
        this.#engine.supply_bytes(need.head, 0, head.bytes);
      }
    } else {
      const bytes = await source.read(need.path, need.offset, need.length);
      this.#open();
      this.#engine.supply_bytes(need.path, need.offset, bytes);
    }
  }
}
