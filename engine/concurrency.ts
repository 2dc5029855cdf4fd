/**
 * Runs `work` on every item, at most `limit` at once: each lane takes the next item when its own
 * is done, so a slow item holds up one lane, never the others.
 */
export async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
