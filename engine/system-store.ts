import { randomId } from './credentials.js';
import type { Queryable } from './db.js';

/** The service's own rows: the dataset identity and the secrets it generated for itself. */
export class SystemStore {
  constructor(private readonly db: Queryable) {}

  /** A round trip, for readiness. */
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  /** The id this database was created with (sql/002_dataset-identity.sql). */
  async datasetIdentity(): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>('SELECT id FROM dataset_identity');
    return rows[0]!.id;
  }

  /**
   * Returns the secret from the environment, else the one this service generated and stored earlier,
   * else generates and stores one. Stored secrets keep every process and every restart in agreement.
   */
  async secret(
    name: 'admin_token' | 'token_secret' | 'dashboard_secret',
    fromEnvironment: string | undefined,
  ): Promise<{ value: string; generated: boolean }> {
    if (fromEnvironment) return { value: fromEnvironment, generated: false };
    const inserted = await this.db.query<{ value: string }>(
      'INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value',
      [name, randomId(32)],
    );
    if (inserted.rows[0]) return { value: inserted.rows[0].value, generated: true };
    const { rows } = await this.db.query<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [name]);
    return { value: rows[0]!.value, generated: false };
  }
}
