import { expect } from 'chai';
import { ReferenceBoard } from '../helpers/reference.js';
import type { FaultHarness } from './harness.js';

interface Player {
  id: string;
  token: string;
  clan: string | null;
}

/**
 * A game with an individual and a clan leaderboard, players (some in clans) and a stream of client
 * reports; keeps the reference of every acknowledged report and checks the service against it.
 */
export class Workload {
  game!: { game_id: string; publishable_key: string; secret_key: string };
  players: Player[] = [];
  readonly boards = ['solo', 'clans'] as const;
  readonly reference = { solo: new ReferenceBoard(), clans: new ReferenceBoard() };
  acknowledged: { board: 'solo' | 'clans'; player: string; score: number; at: number }[] = [];
  failed = 0;
  private next = 1;

  constructor(private readonly harness: FaultHarness) {}

  async setUp(playerCount = 40): Promise<void> {
    const h = this.harness;
    this.game = (await h.call('POST', '/api/v1/admin/games', h.adminHeaders(), { name: 'faults' })).body;
    const server = { 'Secret-Key': this.game.secret_key };
    await h.call('PUT', '/api/v1/server/leaderboards/solo', server, {});
    await h.call('PUT', '/api/v1/server/leaderboards/clans', server, { type: 'clan' });
    for (const clan of ['red', 'blue']) await h.call('PUT', `/api/v1/server/clans/${clan}`, server, {});
    for (let i = 0; i < playerCount; i += 1) {
      const res = await h.call('POST', '/api/v1/signup/anonymous', { 'Publishable-Key': this.game.publishable_key }, {});
      const clan = i % 3 === 0 ? null : i % 3 === 1 ? 'red' : 'blue';
      if (clan) await h.call('PATCH', `/api/v1/server/players/${res.body.player_id}`, server, { clan_id: clan });
      this.players.push({ id: res.body.player_id, token: res.body.token, clan });
    }
  }

  /** Reports from `concurrency` loops until `until` says stop; scores keep rising, so most improve. */
  async stream(stop: () => boolean, concurrency = 8): Promise<void> {
    const loop = async () => {
      while (!stop()) {
        const n = this.next++;
        const player = this.players[n % this.players.length]!;
        const board = n % 2 === 0 ? 'solo' : 'clans';
        const score = n;
        const res = await this.harness
          .call(
            'POST',
            `/api/v1/client/leaderboards/${board}/report_score`,
            {
              'Publishable-Key': this.game.publishable_key,
              'Anonymous-Authorization': player.token,
            },
            { score },
          )
          .catch(() => ({ status: 0, body: undefined }));
        if (res.status === 200) {
          this.reference[board].report(player.id, score);
          this.acknowledged.push({ board, player: player.id, score, at: Date.now() });
        } else {
          this.failed += 1;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
  }

  async streamFor(ms: number, concurrency = 8): Promise<void> {
    const end = Date.now() + ms;
    await this.stream(() => Date.now() > end, concurrency);
  }

  expectedClanTotals(best: Map<string, number>): Map<string, number> {
    const totals = new Map<string, number>();
    for (const player of this.players) {
      const score = best.get(player.id);
      if (player.clan && score !== undefined) totals.set(player.clan, (totals.get(player.clan) ?? 0) + score);
    }
    return totals;
  }

  /** Every best score, rank and clan total in Redis, PostgreSQL and the API equals `expected`. */
  async verify(
    expected: Record<'solo' | 'clans', Map<string, number>> = { solo: this.reference.solo.best, clans: this.reference.clans.best },
  ): Promise<void> {
    const h = this.harness;
    for (const board of this.boards) {
      const id = await h.internalId(this.game.game_id, board);
      const want = expected[board];
      expect(await h.liveScores(id), `${board}: Redis`).to.deep.equal(want);
      expect(await h.persistedScores(id), `${board}: PostgreSQL`).to.deep.equal(want);
      const reference = new ReferenceBoard();
      for (const [player, score] of want) reference.report(player, score);
      const page = await h.call('GET', `/api/v1/client/leaderboards/${board}?limit=1000`, {
        'Publishable-Key': this.game.publishable_key,
        'Anonymous-Authorization': this.players[0]!.token,
      });
      const ranked = page.body.entries.map((e: { player_id: string; score: number; rank: number }) => ({
        player: e.player_id,
        score: e.score,
        rank: e.rank,
      }));
      expect(ranked, `${board}: ranks`).to.deep.equal(reference.ordered());
    }
    const clansId = await h.internalId(this.game.game_id, 'clans');
    const totals = this.expectedClanTotals(expected.clans);
    expect(await h.liveClanTotals(clansId), 'clan totals in Redis').to.deep.equal(totals);
    expect(await h.persistedClanTotals(clansId), 'clan totals in PostgreSQL').to.deep.equal(totals);
  }
}
