/**
 * Node flags of the service's processes, for every launcher (npm start / npm run api, the bench).
 * The API's heap is capped: under load V8 otherwise grows it far past what the bounded caches need.
 * Peak RSS with every cache full (1M players, page, around_me, web page and avatar scenarios):
 * 440 MB uncapped, 240 MB with 160 MB of old space, 203 MB with 112, 181 MB with 112 and 8 MB
 * semi-spaces (a young generation that small still holds a request's garbage, and throughput did
 * not drop). API_HEAP_MB (default 112) sets the old-space cap.
 */
export function nodeFlags(role: 'api' | 'worker', env: NodeJS.ProcessEnv = process.env): string[] {
  if (role !== 'api') return [];
  const megabytes = Number(env.API_HEAP_MB ?? 112);
  if (!Number.isInteger(megabytes) || megabytes < 64) throw new Error('Invalid configuration: API_HEAP_MB: must be a whole number of megabytes >= 64');
  return [`--max-old-space-size=${megabytes}`, '--max-semi-space-size=8'];
}
