import type { Queryable } from '../db.js';

/**
 * One persisted seat: '<attempts used>:<entered 0|1>:<version>:<group>:<tier>' (group and tier ''
 * off leagues), as Redis holds it (engine/live/scripts/includes/seats.lua).
 */
export interface StoredSeat {
  playerId: string;
  seat: string;
}

/**
 * Persisted seats, entries and attempts of each board's current season (docs/competitions.md,
 * part 3; an ended season's rows go with its archive). Writes replace only an older version, so
 * they are harmless to replay and to run in any order; a removal by erasure deletes only rows older
 * than itself.
 */
export class SeatStore {
  constructor(private readonly db: Queryable) {}

  in(client: Queryable): SeatStore {
    return new SeatStore(client);
  }

  async writeSeats(leaderboardInternalId: number, season: number, seats: StoredSeat[]): Promise<void> {
    if (seats.length === 0) return;
    const parsed = seats.map(({ playerId, seat }) => {
      const [used, entered, version, group = '', tier = ''] = seat.split(':');
      return {
        playerId,
        used: Number(used),
        entered: entered === '1',
        version: version!,
        group: group === '' ? null : Number(group),
        tier: tier === '' ? null : Number(tier),
      };
    });
    await this.db.query(
      `INSERT INTO season_seats (leaderboard_internal_id, season, player_id, attempts, entered, version, group_no, tier)
       SELECT $1, $2, u.player_id, u.attempts, u.entered, u.version, u.group_no, u.tier
       FROM unnest($3::text[], $4::int[], $5::bool[], $6::bigint[], $7::int[], $8::smallint[])
         AS u (player_id, attempts, entered, version, group_no, tier)
       ON CONFLICT (leaderboard_internal_id, season, player_id) DO UPDATE
         SET attempts = EXCLUDED.attempts, entered = EXCLUDED.entered, version = EXCLUDED.version,
             group_no = EXCLUDED.group_no, tier = EXCLUDED.tier
         WHERE season_seats.version < EXCLUDED.version`,
      [
        leaderboardInternalId,
        season,
        parsed.map((s) => s.playerId),
        parsed.map((s) => s.used),
        parsed.map((s) => s.entered),
        parsed.map((s) => s.version),
        parsed.map((s) => s.group),
        parsed.map((s) => s.tier),
      ],
    );
  }

  /** Deletes the seats of erased players, where the row is older than the erasure's version. */
  async deleteSeats(leaderboardInternalId: number, season: number, removed: { playerId: string; version: string }[]): Promise<void> {
    if (removed.length === 0) return;
    await this.db.query(
      `DELETE FROM season_seats s USING unnest($3::text[], $4::bigint[]) AS u (player_id, version)
       WHERE s.leaderboard_internal_id = $1 AND s.season = $2 AND s.player_id = u.player_id AND s.version < u.version`,
      [leaderboardInternalId, season, removed.map((r) => r.playerId), removed.map((r) => r.version)],
    );
  }

  /** Deletes every seat of the player (an erasure; player ids are unique across games). */
  async deletePlayer(playerId: string): Promise<void> {
    await this.db.query('DELETE FROM season_seats WHERE player_id = $1', [playerId]);
    await this.db.query('DELETE FROM league_tiers WHERE player_id = $1', [playerId]);
  }

  /** A league's players above the lowest tier, a page at a time in player order (a rebuild). */
  async *tierPages(leaderboardInternalId: number, pageSize = 10_000): AsyncGenerator<{ playerId: string; tier: number }[]> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{ player_id: string; tier: number }>(
        `SELECT player_id, tier FROM league_tiers
         WHERE leaderboard_internal_id = $1 AND tier > 0 AND player_id > $2 ORDER BY player_id LIMIT $3`,
        [leaderboardInternalId, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows.map((row) => ({ playerId: row.player_id, tier: row.tier }));
      after = rows[rows.length - 1]!.player_id;
    }
  }

  /** A season's persisted seats, a page at a time in player order (a rebuild). */
  async *seatPages(leaderboardInternalId: number, season: number, pageSize = 10_000): AsyncGenerator<StoredSeat[]> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{ player_id: string; seat: string }>(
        `SELECT player_id, attempts || ':' || (CASE WHEN entered THEN '1' ELSE '0' END) || ':' || version
                || ':' || coalesce(group_no::text, '') || ':' || coalesce(tier::text, '') AS seat
         FROM season_seats WHERE leaderboard_internal_id = $1 AND season = $2 AND player_id > $3 ORDER BY player_id LIMIT $4`,
        [leaderboardInternalId, season, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows.map((row) => ({ playerId: row.player_id, seat: row.seat }));
      after = rows[rows.length - 1]!.player_id;
    }
  }
}
