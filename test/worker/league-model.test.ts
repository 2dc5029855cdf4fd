import { expect } from 'chai';
import fc from 'fast-check';
import { api, testStores } from '../helpers/context.js';
import { createGame, createLeaderboard, internalBoard, reportScore, secretKey, signupMany, type TestGame } from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

/**
 * A model-based test of leagues over several seasons (docs/competitions.md, part 6): random first
 * reports, better and worse reports with ties at the cuts, entries without a score, bans and unbans,
 * players who skip seasons. Every group read while a season runs, every archived group and every
 * player's tier (as the next season's groups show it, and as PostgreSQL keeps it) equal a model of
 * groups and moves written here from the contract's words: groups fill in order of creation, a group
 * moves at most floor(visible / 2) players each way, a tie at a cut moves whole or not at all,
 * unscored members rank last, banned members keep their place and tier and move nowhere.
 */
const PLAYERS = 12;
const TIERS = ['bronze', 'silver', 'gold'];
const SIZE = 5;

type Op = { kind: 'report'; player: number; score: number } | { kind: 'enter'; player: number } | { kind: 'ban' | 'unban'; player: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('report' as const), player: fc.nat(PLAYERS - 1), score: fc.integer({ min: 1, max: 4 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('enter' as const), player: fc.nat(PLAYERS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('ban' as const, 'unban' as const), player: fc.nat(PLAYERS - 1) }) },
);
const world = fc.record({
  promote: fc.integer({ min: 0, max: 3 }),
  relegate: fc.integer({ min: 0, max: 3 }),
  seasons: fc.array(fc.array(op, { maxLength: 24 }), { minLength: 2, maxLength: 4 }),
});

interface ModelGroup {
  tier: number;
  members: string[];
}
type Zone = 'promote' | 'stay' | 'relegate';

/** Who of a group moves, by tied blocks: the k-th best's block moves whole if it fits the cap, else stops the cut. */
function modelZones(group: ModelGroup, best: Map<string, number>, banned: Set<string>, promote: number, relegate: number) {
  const visible = group.members.filter((p) => !banned.has(p));
  const scored = visible.filter((p) => best.has(p)).sort((a, b) => best.get(b)! - best.get(a)!);
  const rankOf = new Map(scored.map((p) => [p, 1 + scored.filter((q) => best.get(q)! > best.get(p)!).length]));
  // Blocks best first; unscored members are one last block.
  const blocks: string[][] = [];
  for (const p of scored) {
    const last = blocks[blocks.length - 1];
    if (last && best.get(last[0]!) === best.get(p)) last.push(p);
    else blocks.push([p]);
  }
  const unscored = visible.filter((p) => !best.has(p));
  const cap = Math.floor(visible.length / 2);
  const cut = (ordered: string[][], k: number): string[] => {
    const moving: string[] = [];
    for (const block of ordered) {
      if (moving.length >= k) break;
      if (moving.length + block.length > cap) break;
      moving.push(...block);
    }
    return moving;
  };
  const zones = new Map<string, Zone>(visible.map((p) => [p, 'stay']));
  if (group.tier < TIERS.length - 1) for (const p of cut(blocks, Math.min(promote, cap))) zones.set(p, 'promote');
  if (group.tier > 0) {
    const worstFirst = [...(unscored.length > 0 ? [unscored] : []), ...[...blocks].reverse()];
    for (const p of cut(worstFirst, Math.min(relegate, cap))) zones.set(p, 'relegate');
  }
  return { rankOf, zones };
}

describe('league model: groups and moves over several seasons against a model', function () {
  this.timeout(600_000);
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
  });
  after(async () => {
    await worker.stop();
  });

  it('when random reports, entries and bans run over several seasons, then every group, archive and tier equals the model', async () => {
    await fc.assert(
      fc.asyncProperty(world, async ({ promote, relegate, seasons }) => {
        const game: TestGame = await createGame();
        const id = await createLeaderboard(game, { groups: { size: SIZE, tiers: TIERS, promote, relegate } });
        const board = await internalBoard(game, id);
        const players = await signupMany(game, PLAYERS);
        const idOf = (i: number) => players[i]!.playerId;
        const tiers = new Map<string, number>();
        const banned = new Set<string>();

        for (const [index, ops] of seasons.entries()) {
          const season = index + 1;
          const groups: ModelGroup[] = [];
          const groupOf = new Map<string, number>();
          const best = new Map<string, number>();
          const join = (p: string) => {
            if (groupOf.has(p)) return;
            const tier = tiers.get(p) ?? 0;
            let g = groups.findIndex((group) => group.tier === tier && group.members.length < SIZE);
            if (g === -1) g = groups.push({ tier, members: [] }) - 1;
            groups[g]!.members.push(p);
            groupOf.set(p, g);
          };
          for (const step of ops) {
            const p = idOf(step.player);
            if (step.kind === 'ban' || step.kind === 'unban') {
              const path = `/api/v1/server/players/${p}/ban`;
              if (step.kind === 'ban') await api().post(path).set(secretKey(game)).send({}).expect(200);
              else await api().delete(path).set(secretKey(game)).expect(200);
              if (step.kind === 'ban') banned.add(p);
              else banned.delete(p);
              continue;
            }
            const res =
              step.kind === 'report'
                ? await reportScore(game, players[step.player]!, id, step.score)
                : await api()
                    .post(`/api/v1/client/leaderboards/${id}/entry`)
                    .set({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': players[step.player]!.token });
            if (banned.has(p)) {
              expect(res.status, 'a banned player is refused').to.equal(403);
              continue;
            }
            expect(res.status, JSON.stringify(res.body)).to.equal(200);
            join(p);
            if (step.kind === 'report') best.set(p, Math.max(best.get(p) ?? -Infinity, step.score));
          }

          // While the season runs: each group, ranked within itself with its zones.
          const moves = groups.map((group) => modelZones(group, best, banned, promote, relegate));
          for (const [g, group] of groups.entries()) {
            const body = (
              await api()
                .get(`/api/v1/server/leaderboards/${id}/groups/${g + 1}`)
                .set(secretKey(game))
                .expect(200)
            ).body;
            const { rankOf, zones } = moves[g]!;
            expect(body.tier, `season ${season} group ${g + 1}`).to.equal(TIERS[group.tier]);
            expect(sorted(body.entries.map((e: Entry) => [e.player_id, e.rank, e.zone]))).to.deep.equal(
              sorted([...rankOf].map(([p, rank]) => [p, rank, zones.get(p)])),
            );
          }
          const listed = (await api().get(`/api/v1/server/leaderboards/${id}/groups?limit=100`).set(secretKey(game)).expect(200)).body;
          expect(listed.total).to.equal(groups.length);

          // The season's end: every visible member moves as the model says, once.
          await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
          await waitForPersistence(board);
          for (const [g, group] of groups.entries()) {
            const { rankOf, zones } = moves[g]!;
            const after = (p: string) => TIERS[group.tier + { promote: 1, stay: 0, relegate: -1 }[zones.get(p)!]];
            if (rankOf.size === 0) continue;
            const body = (
              await api()
                .get(`/api/v1/server/leaderboards/${id}/groups/${g + 1}?season=${season}`)
                .set(secretKey(game))
                .expect(200)
            ).body;
            expect(sorted(body.entries.map((e: Entry) => [e.player_id, e.rank, e.moved_to]))).to.deep.equal(
              sorted([...rankOf].map(([p, rank]) => [p, rank, after(p)])),
            );
          }
          for (const [g, group] of groups.entries()) {
            for (const p of group.members) {
              const zone = moves[g]!.zones.get(p);
              if (zone) tiers.set(p, group.tier + { promote: 1, stay: 0, relegate: -1 }[zone]);
            }
          }
        }

        // PostgreSQL keeps every tier above the lowest that the moves left.
        const { rows } = await testStores().pool.query<{ player_id: string; tier: number }>(
          'SELECT player_id, tier FROM league_tiers WHERE leaderboard_internal_id = $1 AND tier > 0',
          [board.internalId],
        );
        expect(new Map(rows.map((row) => [row.player_id, row.tier]))).to.deep.equal(new Map([...tiers].filter(([, tier]) => tier > 0)));
        // And the next season's groups form at those tiers.
        for (const player of players) {
          if (banned.has(player.playerId)) continue;
          await reportScore(game, player, id, 1).expect(200);
          const mine = (
            await api()
              .get(`/api/v1/client/leaderboards/${id}/group`)
              .set({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token })
              .expect(200)
          ).body;
          expect(mine.tier, player.playerId).to.equal(TIERS[tiers.get(player.playerId) ?? 0]);
        }
      }),
      { numRuns: 12, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: true },
    );
  });
});

interface Entry {
  player_id: string;
  rank: number;
  zone?: string;
  moved_to?: string;
}

const sorted = (rows: unknown[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
