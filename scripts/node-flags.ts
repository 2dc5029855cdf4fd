/**
 * Node flags of the service's processes, for every launcher (npm start / npm run api, the bench).
 * The API's old space is capped: under load V8 otherwise grows it far past what the bounded caches
 * need (peak RSS 440 MB uncapped, under 200 MB capped; API_HEAP_MB, default 96, sets the cap). The
 * semi-spaces are set explicitly, since V8 sizes the young generation down with a small old space:
 * with 50 requests in flight, a young generation too small for their garbage promotes it, and the
 * old-space collections then cost more than the requests. 16 MB against 8 MB, bench at 1M players,
 * medians of 4 rounds: page of 100 460 → 567 req/s, report_score 1,744 → 1,964, around_me 1,426 →
 * 1,607, for 17 MB more peak RSS; 32 MB was slower than either.
 */
export function nodeFlags(role: 'api' | 'worker', env: NodeJS.ProcessEnv = process.env): string[] {
  if (role !== 'api') return [];
  const megabytes = Number(env.API_HEAP_MB ?? 96);
  if (!Number.isInteger(megabytes) || megabytes < 64)
    throw new Error('Invalid configuration: API_HEAP_MB: must be a whole number of megabytes >= 64');
  return [`--max-old-space-size=${megabytes}`, '--max-semi-space-size=16'];
}
