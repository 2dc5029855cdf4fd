import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../engine/paths.js';
import { api, testUrl } from '../helpers/context.js';
import { createGame, createLeaderboard, scoredPlayers, secretKey, uniqueId, type TestGame } from '../helpers/fixtures.js';
import { runGodotProject, type GodotRun } from '../helpers/godot.js';

const PROJECT = path.join(projectRoot, 'test', 'clients', 'godot');
const CLIENT_SCRIPT = readFileSync(path.join(PROJECT, 'leaderboard_client.gd'), 'utf8');
const GUIDE = readFileSync(path.join(projectRoot, 'docs', 'clients.md'), 'utf8');

/** The clients guide's Godot section: from its heading to the next heading of the same or a higher level. */
function guideGodotSection(): string {
  const start = GUIDE.indexOf('\n### Godot\n');
  expect(start, 'docs/clients.md has a "### Godot" section').to.be.greaterThan(-1);
  const end = GUIDE.slice(start + 1).search(/\n#{2,3} /);
  return GUIDE.slice(start, end === -1 ? undefined : start + 1 + end);
}

describe('Godot 3 client (headless godot3-server against the service)', function () {
  this.timeout(120_000);
  let game: TestGame;
  let board: string;
  let deviceId: string;
  let run: GodotRun;
  const step = (name: string) => {
    const line = run.lines.find((candidate) => candidate.step === name);
    expect(line, `Godot printed no "${name}" line; stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).to.not.equal(undefined);
    return line as Record<string, unknown>;
  };

  before(async () => {
    game = await createGame();
    board = await createLeaderboard(game, { name: 'Godot cup' });
    await scoredPlayers(game, board, [300, 100]);
    deviceId = uniqueId('godot-device');
    run = await runGodotProject(PROJECT, {
      LEADERBOARD_BASE_URL: testUrl(),
      LEADERBOARD_APP_URL: testUrl(),
      LEADERBOARD_PUBLISHABLE_KEY: game.publishableKey,
      LEADERBOARD_ID: board,
      LEADERBOARD_DEVICE_ID: deviceId,
      LEADERBOARD_SCORE: '150.5',
    });
  });

  it('when the project runs, then it prints each call and exits 0', () => {
    expect(run.exitCode, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).to.equal(0);
    expect(run.lines.map((line) => line.step)).to.deep.equal(['sign_up', 'report_score', 'page']);
  });

  it('when it signs up and decodes the token, then the player id in the token is the one the service made for the device', async () => {
    const signUp = step('sign_up');
    expect(signUp.code).to.equal(201);
    expect(signUp.player_id).to.be.a('string').and.equal(signUp.answered_player_id);
    // The same device signing up again is the same player: the service holds the Godot one.
    const again = await api()
      .post('/api/v1/signup/anonymous')
      .set('Publishable-Key', game.publishableKey)
      .send({ device_id: deviceId })
      .expect(200);
    expect(again.body.player_id).to.equal(signUp.player_id);
  });

  it('when it reports a score, then the answer and the service agree on the best score, rank and total', async () => {
    const playerId = step('sign_up').player_id as string;
    const report = step('report_score');
    expect(report.code).to.equal(200);
    expect(report.result).to.include({ leaderboard_id: board, player_id: playerId, best_score: 150.5, rank: 2, total: 3 });
    const record = await api().get(`/api/v1/client/leaderboards/${board}/players/${playerId}`).set(secretKey(game)).expect(200);
    expect(record.body).to.include({ player_id: playerId, score: 150.5, rank: 2, total: 3 });
  });

  it('when it opens the page with its token, then the page knows the viewer and its Close link is recognised as the close request', () => {
    const page = step('page');
    expect(page.code).to.equal(200);
    expect(page.viewer_row, 'the page highlights the viewer: the token survived the URL').to.equal(true);
    expect(page.close_href).to.match(/sdk_action=close_window$/);
    expect(page.closes).to.equal(true);
    expect(page.page_closes, 'the page URL itself is not a close request').to.equal(false);
  });

  it('when the clients guide shows the Godot client, then it is this tested script, verbatim', () => {
    const section = guideGodotSection();
    const blocks = [...section.matchAll(/```gdscript\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks, "the guide's Godot section has the script as a gdscript block").to.include(CLIENT_SCRIPT);
  });

  it('when the clients guide lists the lines that differ in Godot 4, then each Godot 3 line is in the tested script', () => {
    const rows = guideGodotSection()
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split(' | ')[0]!.replace(/^\| `/, '').replace(/`$/, ''));
    expect(rows, "the guide's Godot section has a table of Godot 3 lines and their Godot 4 form").to.have.length.greaterThan(0);
    for (const godot3 of rows) expect(CLIENT_SCRIPT, `the guide's Godot 3 line \`${godot3}\``).to.contain(godot3);
  });
});
