import { randomId } from './credentials.js';
import type { Pool } from './db.js';

/**
 * Returns the secret from the environment, else the one this service generated and stored earlier,
 * else generates and stores one. Stored secrets keep every process and every restart in agreement.
 */
export async function resolveSecret(
  pool: Pool,
  name: 'admin_token' | 'token_secret',
  fromEnvironment: string | undefined,
): Promise<{ value: string; generated: boolean }> {
  if (fromEnvironment) return { value: fromEnvironment, generated: false };
  const inserted = await pool.query<{ value: string }>(
    'INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value',
    [name, randomId(32)],
  );
  if (inserted.rows[0]) return { value: inserted.rows[0].value, generated: true };
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [name]);
  return { value: rows[0]!.value, generated: false };
}
