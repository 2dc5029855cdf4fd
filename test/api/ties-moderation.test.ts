import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  secretKey,
  sendReport,
  signupMany,
  type TestGame,
} from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';
import { expectEveryRead, expectRows, settingsBody, TieModel, type ReadTarget, type TieSettings } from '../helpers/ties.js';

/**
 * Moderation of `earliest` boards (README, "Ties" and "Moderation"): removing a score, a ban, an unban
 * and an erasure, on the live season and on an archived one. Every read must equal the model of the
 * board without the withdrawn players (ranks are positions, so everyone behind closes up by one), and
 * an unban must bring the player back exactly where they were, achieved_at included.
 */

const SETTINGS: TieSettings = { sortOrder: 'desc', tieBreak: 'earliest', columns: ['desc'], rule: 'best' };
/** Reported in this order: the three equal entries rank by the time each was reached. */
const VALUES: [number, number][] = [
  [10, 2],
  [10, 2],
  [10, 2],
  [12, 0],
  [10, 3],
  [8, 9],
];

const ban = (game: TestGame, playerId: string) =>
  api().post(`/api/v1/server/players/${playerId}/ban`).set(secretKey(game)).send({}).expect(200);
const unban = (game: TestGame, playerId: string) => api().delete(`/api/v1/server/players/${playerId}/ban`).set(secretKey(game)).expect(200);
const erase = (game: TestGame, playerId: string) => api().delete(`/api/v1/server/players/${playerId}`).set(secretKey(game)).expect(204);
const removeScore = (game: TestGame, leaderboardId: string, playerId: string, season?: number) =>
  api()
    .delete(`/api/v1/server/leaderboards/${leaderboardId}/scores/${playerId}${season === undefined ? '' : `?season=${season}`}`)
    .set(secretKey(game))
    .expect(204);

/** An earliest clan board holding VALUES, one player each, and one member who never scores; the model with the times the answers gave. */
async function earliestBoard(): Promise<{ target: ReadTarget; model: TieModel; board: { id: string; internalId: number } }> {
  const game = await createGame();
  const id = await createLeaderboard(game, settingsBody(SETTINGS, { type: 'clan' }));
  const players = await signupMany(game, VALUES.length + 1);
  const clan = await createClan(game);
  await joinClan(game, clan, [players[1]!, players[2]!, players[4]!, players[6]!]);
  const model = new TieModel(SETTINGS);
  for (const [i, [score, tiebreaker]] of VALUES.entries()) {
    const answer = await sendReport(game, players[i]!, id, { score, tiebreakers: [tiebreaker] }).expect(200);
    model.report(players[i]!.playerId, score, [tiebreaker]);
    model.setTime(players[i]!.playerId, Date.parse(answer.body.achieved_at));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const members = [1, 2, 4, 6].map((i) => players[i]!.playerId);
  return {
    target: {
      game,
      bot: { 'Api-Key': (await createThirdPartyKey(game)).apiKey },
      leaderboardId: id,
      players,
      clans: [{ id: clan, members }],
    },
    model,
    board: await internalBoard(game, id),
  };
}

/** The target without an erased player: their id no longer names anyone, so their own reads are no longer theirs. */
const withoutPlayer = (target: ReadTarget, playerId: string): ReadTarget => ({
  ...target,
  players: target.players.filter((player) => player.playerId !== playerId),
  clans: target.clans?.map((clan) => ({ ...clan, members: clan.members.filter((member) => member !== playerId) })),
});

describe('moderation of earliest boards', function () {
  this.timeout(120_000);
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
  });
  after(async () => {
    await worker.stop();
  });

  it('when a score is removed from a live earliest board, then everyone behind it closes up by one, and the player may report again', async () => {
    const { target, model } = await earliestBoard();
    const [, second] = target.players;
    await expectEveryRead(target, model, 'before');
    await removeScore(target.game, target.leaderboardId, second!.playerId);
    model.remove(second!.playerId);
    await expectEveryRead(target, model, 'without the second');
    const again = await sendReport(target.game, second!, target.leaderboardId, { score: 10, tiebreakers: [2] }).expect(200);
    model.report(second!.playerId, 10, [2]);
    model.setTime(second!.playerId, Date.parse(again.body.achieved_at));
    await expectEveryRead(target, model, 'reported again, now the last of the equal entries');
  });

  it('when a player is banned on a live earliest board, then the board closes up without them, and an unban puts them back exactly, achieved_at included', async () => {
    const { target, model, board } = await earliestBoard();
    const [first] = target.players;
    await ban(target.game, first!.playerId);
    await expectEveryRead(target, model.without([first!.playerId]), 'banned');
    await unban(target.game, first!.playerId);
    await expectEveryRead(target, model, 'unbanned');
    await waitForPersistence(board);
    await expectRows(board, model, 'unbanned');
  });

  it('when a player is erased, then the live earliest board closes up without them', async () => {
    const { target, model, board } = await earliestBoard();
    const third = target.players[2]!;
    await erase(target.game, third.playerId);
    model.remove(third.playerId);
    await expectEveryRead(withoutPlayer(target, third.playerId), model, 'erased');
    await waitForPersistence(board);
    await expectRows(board, model, 'erased');
  });

  it('when an archived earliest season has a score removed, a player banned then unbanned, and a player erased, then its reads close up exactly and the unban restores the player', async () => {
    const { target, model, board } = await earliestBoard();
    const [first, second, , fourth] = target.players;
    await api().post(`/api/v1/server/leaderboards/${target.leaderboardId}/reset`).set(secretKey(target.game)).expect(200);
    await waitForPersistence(board);
    await expectEveryRead(target, model, 'archived', 1);

    await removeScore(target.game, target.leaderboardId, second!.playerId, 1);
    model.remove(second!.playerId);
    await expectEveryRead(target, model, 'archived, a score removed', 1);
    await expectRows(board, model, 'archived, a score removed', 1);

    await ban(target.game, first!.playerId);
    await expectEveryRead(target, model.without([first!.playerId]), 'archived, the first banned', 1);
    await expectRows(board, model.without([first!.playerId]), 'archived, the first banned', 1);
    await unban(target.game, first!.playerId);
    await expectEveryRead(target, model, 'archived, the first unbanned', 1);
    await expectRows(board, model, 'archived, the first unbanned', 1);

    await erase(target.game, fourth!.playerId);
    model.remove(fourth!.playerId);
    await expectEveryRead(withoutPlayer(target, fourth!.playerId), model, 'archived, the fourth erased', 1);
    await expectRows(board, model, 'archived, the fourth erased', 1);
  });
});
