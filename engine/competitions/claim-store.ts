import type { BanKind } from '../players/player-store.js';
import type { RewardsBy } from '../leaderboards/leaderboard-store.js';
import type { Queryable } from '../db.js';
import { generatedDisplayName } from '../players/display-names.js';

export interface Claim {
  rank: number;
  reward: object;
  claimedAt: Date;
}

export interface ListedClaim extends Claim {
  playerId: string;
  displayName: string;
}

/** Reward claims, one row per board, season and player: the primary key makes a claim happen once. */
export class ClaimStore {
  constructor(private readonly db: Queryable) {}

  in(client: Queryable): ClaimStore {
    return new ClaimStore(client);
  }

  /** The player's claim of that season, if any. */
  async find(leaderboardInternalId: number, season: number, playerId: string): Promise<Claim | undefined> {
    const { rows } = await this.db.query<{ rank: number; reward: object; claimed_at: Date }>(
      'SELECT rank, reward, claimed_at FROM reward_claims WHERE leaderboard_internal_id = $1 AND season = $2 AND player_id = $3',
      [leaderboardInternalId, season, playerId],
    );
    return rows[0] && { rank: rows[0].rank, reward: rows[0].reward, claimedAt: rows[0].claimed_at };
  }

  /** Records the claim unless the player claimed that season before: its time, or undefined then. */
  async insert(leaderboardInternalId: number, season: number, playerId: string, rank: number, reward: object): Promise<Date | undefined> {
    const { rows } = await this.db.query<{ claimed_at: Date }>(
      `INSERT INTO reward_claims (leaderboard_internal_id, season, player_id, rank, reward) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING claimed_at`,
      [leaderboardInternalId, season, playerId, rank, JSON.stringify(reward)],
    );
    return rows[0]?.claimed_at;
  }

  /** A season's claims, newest first, at most `limit`, with the claimants' names, and how many there are. */
  async list(leaderboardInternalId: number, season: number, limit: number): Promise<{ total: number; claims: ListedClaim[] }> {
    const [page, count] = await Promise.all([
      this.db.query<{ player_id: string; display_name: string | null; rank: number; reward: object; claimed_at: Date }>(
        `SELECT c.player_id, p.display_name, c.rank, c.reward, c.claimed_at FROM reward_claims c JOIN players p ON p.id = c.player_id
         WHERE c.leaderboard_internal_id = $1 AND c.season = $2 ORDER BY c.claimed_at DESC, c.player_id LIMIT $3`,
        [leaderboardInternalId, season, limit],
      ),
      this.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM reward_claims WHERE leaderboard_internal_id = $1 AND season = $2',
        [leaderboardInternalId, season],
      ),
    ]);
    return {
      total: count.rows[0]!.count,
      claims: page.rows.map((row) => ({
        playerId: row.player_id,
        displayName: row.display_name ?? generatedDisplayName(row.player_id),
        rank: row.rank,
        reward: row.reward,
        claimedAt: row.claimed_at,
      })),
    };
  }

  /** How the player of that game is banned (null: not banned); undefined when there is no such player. */
  async banKind(gameId: string, playerId: string): Promise<BanKind | null | undefined> {
    // FOR SHARE: a ban (which locks the row to update it) falls wholly before or after the claim.
    const { rows } = await this.db.query<{ ban_kind: BanKind | null }>(
      'SELECT ban_kind FROM players WHERE id = $1 AND game_id = $2 FOR SHARE',
      [playerId, gameId],
    );
    return rows[0]?.ban_kind;
  }

  /** The bands an archived season ended with (its archive's settings); undefined when it is not archived. */
  async archivedBands(
    leaderboardInternalId: number,
    season: number,
  ): Promise<{ bands: { rank_from: number; rank_to: number; reward: object }[]; by: RewardsBy } | undefined> {
    const { rows } = await this.db.query<{
      rewards: { rank_from: number; rank_to: number; reward: object }[] | null;
      by: RewardsBy | null;
    }>(
      `SELECT settings->'rewards' AS rewards, settings->>'rewards_by' AS by FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = $2`,
      [leaderboardInternalId, season],
    );
    return rows[0] && { bands: rows[0].rewards ?? [], by: rows[0].by ?? 'rank' };
  }
}
