/**
 * Node flags of the service's processes, for every launcher (npm start / npm run api, the bench).
 * The API's old space is capped: under load V8 otherwise grows its heap far past what the bounded
 * caches need (measured 440 MB peak RSS uncapped, 240 MB at 160 MB, 192 MB at 112 MB, with the
 * player cache full); API_HEAP_MB (default 112) sets the cap.
 */
export function nodeFlags(role: 'api' | 'worker', env: NodeJS.ProcessEnv = process.env): string[] {
  if (role !== 'api') return [];
  const megabytes = Number(env.API_HEAP_MB ?? 112);
  if (!Number.isInteger(megabytes) || megabytes < 64) throw new Error('Invalid configuration: API_HEAP_MB: must be a whole number of megabytes >= 64');
  return [`--max-old-space-size=${megabytes}`];
}
