import { expect } from 'chai';
import { api, testUrl } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  namedPlayer,
  reportScores,
  scoredPlayers,
  secretKey,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { buildBot, removeBot, runBot, type BuiltBot } from './typed-bot.js';

/** What the bot prints: see test/clients/bot/bot.ts. */
interface BotRun {
  player_id: string;
  report: { submitted_score: number; best_score: number; improved: boolean; rank: number; total: number };
  pages: { limit: number; offset: number; total: number; entries: { player_id: string; score: number; rank: number }[] }[];
  alias_record: { leaderboard_id: string; player_id: string; display_name: string; score: number; rank: number; total: number };
  settings: { leaderboard_id: string; name: string; sort_order: string; season: number; next_reset_at: string | null };
}

describe('A client typed from the served OpenAPI document', function () {
  // Generating the types and one strict compile of the bot take a few seconds on a slow machine.
  this.timeout(60_000);
  let bot: BuiltBot | undefined;

  before(async () => {
    bot = await buildBot(testUrl());
  });

  after(() => removeBot(bot));

  it('when the types are generated from /openapi.json, then the bot compiles in strict mode with no diagnostics', () => {
    expect(bot!.diagnostics, 'the compiler reported (its bot.ts is a copy of test/clients/bot/bot.ts)').to.equal('');
  });

  it('when the bot signs up, reports, pages the leaderboard, reads a record by alias and the settings, then it sees what the world holds', async () => {
    const game: TestGame = await createGame();
    const leaderboardId = await createLeaderboard(game);
    const { apiKey } = await createThirdPartyKey(game);
    const otherScores = [500, 300, 300, 50];
    const others = await scoredPlayers(game, leaderboardId, otherScores);
    const aliased: TestPlayer = await namedPlayer(game, 'Aliased Ace');
    await reportScores(game, leaderboardId, [[aliased, 100]]);
    const steamId = uniqueId('steam');
    await api()
      .patch(`/api/v1/server/players/${aliased.playerId}`)
      .set(secretKey(game))
      .send({ aliases: { steam: steamId } })
      .expect(200);

    const run = (await runBot(bot!, {
      baseUrl: testUrl(),
      publishableKey: game.publishableKey,
      secretKey: game.secretKey,
      apiKey,
      leaderboardId,
      score: 250,
      pageSize: 2,
      alias: { type: 'steam', id: steamId },
    })) as BotRun;

    expect(run.report).to.deep.equal({ submitted_score: 250, best_score: 250, improved: true, rank: 4, total: 6 });

    expect(run.pages.map(({ limit, offset, total, entries }) => [limit, offset, total, entries.length])).to.deep.equal([
      [2, 0, 6, 2],
      [2, 2, 6, 2],
      [2, 4, 6, 2],
    ]);
    const entries = run.pages.flatMap((page) => page.entries);
    expect(entries.map(({ score, rank }) => [score, rank])).to.deep.equal([
      [500, 1],
      [300, 2],
      [300, 2],
      [250, 4],
      [100, 5],
      [50, 6],
    ]);
    // Tied players keep one order, so paging lists each player once, whichever of a tie comes first.
    expect(entries.map(({ player_id, score }) => [player_id, score])).to.have.deep.members([
      ...others.map((player, i) => [player.playerId, otherScores[i]]),
      [aliased.playerId, 100],
      [run.player_id, 250],
    ]);

    expect(run.alias_record).to.deep.equal({
      leaderboard_id: leaderboardId,
      player_id: aliased.playerId,
      display_name: 'Aliased Ace',
      score: 100,
      rank: 5,
      total: 6,
    });
    expect(run.settings).to.deep.equal({
      leaderboard_id: leaderboardId,
      name: leaderboardId,
      sort_order: 'desc',
      season: 1,
      next_reset_at: null,
    });
  });
});
