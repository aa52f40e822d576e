// Every public name of the package, used as a TypeScript program would: checked by
// `tsc --strict` in the tests (types.test.mjs), never run.
import {
  DEFAULT_CACHE_BYTES,
  DEFAULT_FETCHED_BYTES,
  directorySource,
  openTablebase,
  Tablebase,
  TablebaseError,
  urlSource,
  type Options,
  type ProbeAnswer,
  type Source,
  type Stats,
  type Verdict,
} from 'jungle-tablebase';

const options: Options = { cacheBytes: DEFAULT_CACHE_BYTES, fetchedBytes: DEFAULT_FETCHED_BYTES, ranges: 'preferred', wholeBytes: 1 << 20 };
const mine: Source = {
  list: (rules) => [`${rules}.txt`],
  size: () => 3,
  read: (_path, _offset, length) => new Uint8Array(length),
};

async function main(): Promise<void> {
  const tb: Tablebase = await openTablebase('tables', options);
  const answer: ProbeAnswer = await tb.probe('mistboard', '7/7/7/7/7/3l3/7/3E3/7 r', { line: true });
  const wdl: 1 | 0 | -1 = await tb.probeWdl('mistboard', answer.position);
  const dtm: number | null = await tb.probeDtm('mistboard', answer.position);
  const best: string | null = await tb.bestMove('mistboard', answer.position);
  const verdict: Verdict = await tb.adjudicate('mistboard', answer.position);
  const moves = await tb.moves('animal-gambit', '8/8/8/8/1r6/8/4R3/4C3 g');
  const turn = await tb.steps('animal-gambit', moves.position, 'Ce1w');
  const stats: Stats = tb.stats();
  console.log(wdl, dtm, best, verdict.dead_draw, turn, stats.caches.map((c) => c.name));
  tb.close();
  for (const source of [directorySource('tables'), urlSource(new URL('https://example.org/t/')), mine]) {
    try {
      await (await openTablebase(source)).probe('flip4x4', '4/2cE/2?1/4 r 34 ?:P');
    } catch (e) {
      if (e instanceof TablebaseError) console.log(e.code, e.status, e.message);
    }
  }
}

void main();
