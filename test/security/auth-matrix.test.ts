import { expect } from 'chai';
import type { Response } from 'supertest';
import { openApiDocument } from '../../api/openapi/document.js';
import { ENDPOINTS } from '../../api/routes/index.js';
import { api } from '../helpers/context.js';
import { createGame, uniqueId } from '../helpers/fixtures.js';
import { CREDENTIAL_KINDS, type CredentialKind } from './credential-kinds.js';
import { MATRIX_ROWS, acceptedOutcome, rowName, type MatrixRow, type MatrixWorld, type Outcome } from './matrix-rows.js';
import { mayHaveChanged } from './endpoint-values.js';
import { expectAbout, expectNothingOf, factsOf } from './matrix-facts.js';
import { snapshotGames } from './snapshot.js';
import { buildGameWorld, type GameWorld } from './world.js';

/**
 * Every endpoint (a row per descriptor that takes credentials) against every kind of credential
 * (column): each cell must give the answer its descriptor implies, marked not to be cached; a success
 * must be about what the request named in its credential's own game (see matrix-facts.ts) and show
 * nothing of the other game; no cell may change a game its credential does not own, nor one its
 * answer says it left unchanged.
 */
describe('the authentication matrix', () => {
  /** Two games holding the same device id, and a third. */
  async function buildWorld(): Promise<MatrixWorld> {
    const device = uniqueId('device');
    const [a, b, rotated] = await Promise.all([buildGameWorld(device, [5011, 7013]), buildGameWorld(device, [5023, 7027]), createGame()]);
    return { a, b, rotatedGameId: rotated.gameId };
  }

  /** Rows that only read share one world; a row that may change data gets its own. */
  let shared: Promise<MatrixWorld> | undefined;

  function expectedOutcome(row: MatrixRow, kind: CredentialKind): Outcome {
    const verdict = kind.verdicts[row.auth];
    if (verdict === 'signIn') return { status: 303 };
    if (verdict !== 'accepted') return { status: 401, codes: [verdict] };
    return acceptedOutcome(row, kind);
  }

  function send(row: MatrixRow, kind: CredentialKind, w: MatrixWorld): Promise<Response> {
    const headers = kind.headers(w.a, w.b);
    let path = row.path(w);
    const token = headers['Anonymous-Authorization']?.replace(/^Bearer /, '');
    if (row.auth === 'pageToken' && token) path += `?token=${encodeURIComponent(token)}`;
    const request = api()[row.method](path).set(headers);
    // The dashboard takes forms; a session's form carries its CSRF token.
    if (row.endpoint.tag === 'Dashboard' && row.method !== 'get') {
      const csrf = kind.session ? { _csrf: (kind.owner === 'this' ? w.a : w.b).dashboard.csrf } : {};
      return request.type('form').send({ ...(row.body?.(w) ?? {}), ...csrf });
    }
    return row.body ? request.send(row.body(w)) : request;
  }

  /** The world a credential's answers are about (the admin's: the game under test), and the one they must never show. */
  function worldsOf(row: MatrixRow, kind: CredentialKind, w: MatrixWorld): { own: GameWorld; foreign?: GameWorld } {
    const owner = row.auth === 'pageToken' || row.auth === 'playerToken' ? kind.tokenOwner : kind.owner;
    if (owner === 'other') return { own: w.b, foreign: w.a };
    // The admin sees every game.
    return owner === 'this' ? { own: w.a, foreign: w.b } : { own: w.a };
  }

  function expectAnswerAbout(row: MatrixRow, kind: CredentialKind, w: MatrixWorld, res: Response, cell: string): void {
    const { own, foreign } = worldsOf(row, kind, w);
    const viewer = kind.tokenOwner && (kind.tokenOwner === 'this' ? w.a : w.b).player.playerId;
    if (/json/.test(String(res.headers['content-type']))) expectAbout(res.body, row.sent(w), factsOf(own, viewer), cell);
    // An id the request sends may exist in both games; nothing else of the other game may show.
    if (foreign) expectNothingOf(res, foreign, row.path(w) + JSON.stringify(row.body?.(w) ?? {}), cell);
  }

  for (const row of MATRIX_ROWS) {
    it(`when ${rowName(row)} gets each kind of credential, then each gets its documented answer and touches only its own game`, async function () {
      this.timeout(30_000);
      const w = await (row.changes ? buildWorld() : (shared ??= buildWorld()));
      let [beforeA, beforeB] = await snapshotGames([w.a.game.gameId, w.b.game.gameId]);
      for (const kind of CREDENTIAL_KINDS) {
        const cell = `${rowName(row)} with ${kind.name}`;
        const expected = expectedOutcome(row, kind);

        const res = await send(row, kind, w).catch((error: Error) => {
          throw new Error(`${cell}: ${error.message}`);
        });

        expect(res.status, `${cell}: status (${res.text.slice(0, 200)})`).to.equal(expected.status);
        if (expected.codes) {
          // The web page answers its errors as pages a person reads: no code to compare.
          if (row.endpoint.htmlErrors || row.endpoint.tag === 'Dashboard')
            expect(res.headers['content-type'], `${cell}: an HTML error page`).to.match(/^text\/html/);
          else expect(res.body.error?.code, `${cell}: error code`).to.be.oneOf(expected.codes);
        }
        // A credentialed answer, success or refusal, is the caller's alone: no cache may keep or share it.
        // (A session cookie is a credential to the dashboard only, which never lets an answer be cached.)
        if (row.endpoint.tag === 'Dashboard') expect(res.headers['cache-control'], `${cell}: Cache-Control`).to.equal('no-store');
        if (kind.key !== 'none' && !kind.session) {
          expect(res.headers['cache-control'], `${cell}: Cache-Control`).to.equal('no-store');
          const vary = String(res.headers.vary ?? '').split(/\s*,\s*/);
          expect(vary, `${cell}: Vary`).to.include.members([
            'Publishable-Key',
            'Secret-Key',
            'Api-Key',
            'Anonymous-Authorization',
            'Authorization',
          ]);
        }
        if (res.status < 300) expectAnswerAbout(row, kind, w, res, cell);
        const [afterA, afterB] = await snapshotGames([w.a.game.gameId, w.b.game.gameId]);
        const writes = mayHaveChanged(row.endpoint, res);
        if (!(writes && kind.owner === 'this')) expect(afterA, `${cell}: changed this game's data`).to.deep.equal(beforeA);
        if (!(writes && kind.owner === 'other')) expect(afterB, `${cell}: changed the other game's data`).to.deep.equal(beforeB);
        [beforeA, beforeB] = [afterA, afterB];
      }
    });
  }

  it('when the OpenAPI document lists an operation that takes credentials, then the matrix has a row for it', () => {
    const secured = Object.entries(openApiDocument(ENDPOINTS).paths).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, { security?: unknown[] }>)
        .filter(([, operation]) => (operation.security ?? []).length > 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set(MATRIX_ROWS.map((row) => row.operation));
    expect(
      secured.filter((operation) => !covered.has(operation)),
      'operations without a matrix row',
    ).to.deep.equal([]);
  });
});
