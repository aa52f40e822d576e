// Types of the package jungle-tablebase (index.js).

/** A rule set's name: `mistboard`, `tiger-lengthwise`, `leiden`, `flip4x4`, `clesto`,
 * `animal-gambit`. */
export type Rules = string;

/** Where table bytes come from, for a host the package does not know. Each answer may be a
 * promise. Paths are `rules/file`, as `jtb gen` lays the tables out. */
export interface Source {
  /** The file names of a rule set's folder; `null` (or `undefined`) where it has none. */
  list(rules: Rules): Promise<Iterable<string> | null | undefined> | Iterable<string> | null | undefined;
  /** Exactly `length` bytes of the file at `path` from `offset`. */
  read(path: string, offset: number, length: number): Promise<Uint8Array | ArrayBuffer> | Uint8Array | ArrayBuffer;
  /** The file's size in bytes; `null` (or `undefined`) where there is no such file. */
  size?(path: string): Promise<number | null | undefined> | number | null | undefined;
  /** The file's size and its first bytes (at most `length`) in one answer, where that is
   * cheaper than `size` and `read`; `null` where there is no such file. */
  head?(
    path: string,
    length: number,
  ): Promise<{ size: number; bytes: Uint8Array | ArrayBuffer } | null | undefined> | { size: number; bytes: Uint8Array | ArrayBuffer } | null | undefined;
}

export interface Options {
  /** The bound of each rule set's decoded blocks, in bytes (default 8 MiB). */
  cacheBytes?: number;
  /** The bound of fetched bytes held before they are decoded, in bytes (default 4 MiB). */
  fetchedBytes?: number;
  /** The `fetch` of a URL source (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** A URL source's use of Range requests: `'required'` (the default) refuses a host that
   * answers them with whole files; `'preferred'` reads such a host's files whole instead. */
  ranges?: 'required' | 'preferred';
  /** The bound of whole files kept from a host without Range support, in bytes (default
   * 64 MiB). */
  wholeBytes?: number;
}

/** The answer of `GET /api/v1/{rules}?position=...` (or `/line`): the position's value with
 * every move, best first, in the fields the HTTP API documents for its game. */
export interface ProbeAnswer {
  position: string;
  rules: Rules;
  [field: string]: unknown;
}

/** The answer of `/api/v1/{rules}/moves`: the legal moves with the positions after them. */
export interface MovesAnswer {
  position: string;
  rules: Rules;
  [field: string]: unknown;
}

/** `jtb adjudicate --json`'s object: whether the game may be stopped, and its result. */
export interface Verdict {
  position: string;
  dead_draw: boolean;
  reason: string;
  [field: string]: unknown;
}

/** One cache of decoded blocks. */
export interface CacheFigures {
  /** The rule set, or `chance`, `revealed`, `revealed-dte` for the flip game's chance tables. */
  name: string;
  bytes: number;
  blocks: number;
  decodes: number;
}

export interface Stats {
  caches: CacheFigures[];
  cache_bound: number;
  cache_bytes: number;
  fetched_bytes: number;
}

/** An error of the tables, in the HTTP API's words: its `code` and `status` are the API's
 * (`bad-position` 400, `unknown-rules` 404, `missing-table` 404, `damaged-table` 500...). A
 * source that fails rejects with a plain `Error` naming the file. */
export class TablebaseError extends Error {
  readonly code: string;
  readonly status: number;
}

/** The tables of every rule set under one source. */
export class Tablebase {
  private constructor();
  /** What `GET /api/v1/{rules}?position=text` answers (`/line` with `{ line: true }`). */
  probe(rules: Rules, text: string, options?: { line?: boolean }): Promise<ProbeAnswer>;
  /** Win (1), draw (0) or loss (-1) for the side to move, the clock rule aside. */
  probeWdl(rules: Rules, text: string): Promise<1 | 0 | -1>;
  /** The signed distance to mate (0 for a draw), or `null` where there is none. */
  probeDtm(rules: Rules, text: string): Promise<number | null>;
  /** The best move, or `null` where there is none. */
  bestMove(rules: Rules, text: string): Promise<string | null>;
  /** Whether the game may be stopped here (`jtb adjudicate --json`). */
  adjudicate(rules: Rules, text: string): Promise<Verdict>;
  /** The legal moves (`/api/v1/{rules}/moves`); no tables needed. */
  moves(rules: Rules, text: string): Promise<MovesAnswer>;
  /** Animal Gambit's turn step by step (`/api/v1/{rules}/steps`); no tables needed. */
  steps(rules: Rules, text: string, steps?: string): Promise<Record<string, unknown>>;
  /** What the caches hold now. */
  stats(): Stats;
  /** Frees the tables; later probes reject. */
  close(): void;
}

/** Opens the tables under a directory path (Node), a base URL (`http:`/`https:`, read by
 * Range requests) or a {@link Source}. Nothing is read until the first probe. */
export function openTablebase(source: string | URL | Source, options?: Options): Promise<Tablebase>;

/** The source of a directory's tables (Node). */
export function directorySource(dir: string): Source & { head: NonNullable<Source['head']> };

/** The source of tables on a static host under `base`, read with Range requests. */
export function urlSource(base: string | URL, options?: Pick<Options, 'fetch' | 'ranges' | 'wholeBytes'>): Source & { head: NonNullable<Source['head']> };

export const DEFAULT_CACHE_BYTES: number;
export const DEFAULT_FETCHED_BYTES: number;
