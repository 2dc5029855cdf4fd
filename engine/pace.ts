import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs one step of background work, then waits, so that the work keeps only its share of the
 * machine (docs/performance.md, paced season ends): a season's archive or a league's moves run for
 * seconds of CPU, on the cores that answer reports.
 */
export type Pace = <T>(step: () => Promise<T>) => Promise<T>;

/** Steps take at most `share` (0-1] of the wall clock: each is followed by a wait in proportion to its own time. */
export function pacedTo(share: number): Pace {
  return async (step) => {
    const started = performance.now();
    const result = await step();
    if (share < 1) await sleep(((performance.now() - started) * (1 - share)) / share);
    return result;
  };
}

/** No waits: the work as fast as it runs (an API process whose player waits on it). */
export const unpaced: Pace = (step) => step();

/** Runs `work` on every page of `pages`, reading each page and working on it as one paced step. */
export async function eachPaced<T>(pages: AsyncIterable<T>, pace: Pace, work: (page: T) => Promise<unknown>): Promise<void> {
  const iterator = pages[Symbol.asyncIterator]();
  for (;;) {
    const more = await pace(async () => {
      const next = await iterator.next();
      if (next.done) return false;
      await work(next.value);
      return true;
    });
    if (!more) return;
  }
}
