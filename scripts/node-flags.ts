/**
 * Node flags of the service's processes, for every launcher (npm start / npm run api, the bench).
 * The API's heap is capped: under load V8 otherwise grows it far past what the bounded caches need.
 * Peak RSS with every cache full (bench, 1M players; the avatar scenario, which draws PNGs, is the
 * peak): 440 MB uncapped, 240 MB with 160 MB of old space, 206 MB with 112 MB and 8 MB semi-spaces,
 * 195 MB with 96 MB and 8 MB semi-spaces (about twice the 40-55 MB of old space in use under that
 * load, read from /metrics; a young generation that small still holds a request's garbage).
 * API_HEAP_MB (default 96) sets the old-space cap.
 */
export function nodeFlags(role: 'api' | 'worker', env: NodeJS.ProcessEnv = process.env): string[] {
  if (role !== 'api') return [];
  const megabytes = Number(env.API_HEAP_MB ?? 96);
  if (!Number.isInteger(megabytes) || megabytes < 64) throw new Error('Invalid configuration: API_HEAP_MB: must be a whole number of megabytes >= 64');
  return [`--max-old-space-size=${megabytes}`, '--max-semi-space-size=8'];
}
