import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

/**
 * How full the process's old generation is (0-1), for what refuses work before the process runs out
 * of memory (the live streams' guard, docs/events.md part 6). V8's heap_size_limit adds the young
 * generation's reserve to the old space's cap (with the API's --max-old-space-size=96 and
 * --max-semi-space-size=16, 144 MB for 96): judged against it, a guard at 85% never fired before the
 * old space was full. So the old generation's use is read against its own cap.
 */
export function oldGenerationShare(): number {
  let young = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space' || space.space_name === 'new_large_object_space') young += space.space_used_size;
  }
  return (getHeapStatistics().used_heap_size - young) / OLD_GENERATION_LIMIT;
}

/** The old space's cap: --max-old-space-size (scripts/node-flags.ts sets it for the API), else V8's whole limit. */
const OLD_GENERATION_LIMIT = (() => {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const megabytes = flags.map((flag) => /^--max-old-space-size=(\d+)$/.exec(flag)?.[1]).find((value) => value !== undefined);
  return megabytes ? Number(megabytes) * 2 ** 20 : getHeapStatistics().heap_size_limit;
})();
