import type { ScenarioContext } from './scenarios.js';
import type { ServiceSetup } from './service.js';

/** A third-party key through the API (POST /api/v1/server/third_party_keys); null while that route is missing. */
export async function createThirdPartyKey(setup: ServiceSetup, ctx: ScenarioContext): Promise<string | null> {
  const response = await fetch(`http://127.0.0.1:${setup.apiPort}/api/v1/server/third_party_keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'secret-key': ctx.secretKey },
    body: JSON.stringify({ name: 'bench' }),
  });
  const body = (await response.json().catch(() => ({}))) as { api_key?: string };
  if (response.status === 201 && body.api_key) return body.api_key;
  if (response.status === 404) return null;
  // The route exists but failed: run the scenario anyway, so its errors show in the table.
  process.stderr.write(`  creating a third-party key answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}\n`);
  return 'tpk_not_created';
}
