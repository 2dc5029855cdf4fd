import { expect } from 'chai';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { openApiDocument } from '../../api/openapi/document.js';
import { ENDPOINTS } from '../../api/routes/index.js';
import { FUZZ_TARGETS, type FuzzTarget } from './fuzz-targets.js';
import { buildFuzzWorld, type FuzzWorld } from './fuzz-world.js';
import {
  AUTH_CODES,
  authenticates,
  choiceHeaders,
  describeResponse,
  expectWellFormed,
  headerChoices,
  hostileRequest,
  methodOf,
  onlyValidOrAbsent,
  pinnedRequests,
  send,
  validHeaders,
} from './fuzz-requests.js';
import { snapshotGame, type GameState } from './snapshot.js';

/**
 * Property-based fuzzing of every endpoint: hostile path, query and body values, and missing, odd
 * or spoiled credentials. Whatever arrives, the answer is documented, never a 5xx, every error is
 * JSON, and a request the service refuses changes nothing it has stored.
 */
const HOSTILE_RUNS = 60;
const CREDENTIAL_RUNS = 30;

describe('fuzzing every endpoint', () => {
  /** Endpoints that never change data share one game; the others get a game each. */
  let shared: Promise<FuzzWorld> | undefined;

  for (const target of FUZZ_TARGETS) {
    describe(target.operation, () => {
      const method = methodOf(target);
      let w: FuzzWorld;
      /** The game's stored state after the last passing run (none after a failing one). */
      let state: GameState | undefined;

      before(async function () {
        this.timeout(30_000);
        w = await (target.endpoint.method !== 'get' ? buildFuzzWorld() : (shared ??= buildFuzzWorld()));
        state = undefined;
      });

      /** Sends one request and checks what it did: `accepted` says which successes may change data. */
      async function probe(
        request: () => Promise<Response>,
        judge: (res: Response) => { where: string; accepted: boolean },
      ): Promise<void> {
        const before = state ?? (await snapshotGame(w.game.gameId));
        state = undefined;
        const { where, accepted } = judge(await request());
        const after = await snapshotGame(w.game.gameId);
        if (!accepted) expect(after, `${where}: changed stored data`).to.deep.equal(before);
        state = after;
      }

      const harmless = target.harmless;
      if (harmless) {
        it('when credential headers are missing, odd or spoiled, then only valid ones get through and nothing changes', async function () {
          this.timeout(30_000);
          const request = harmless(w);
          const body = request.body && { contentType: 'application/json', text: JSON.stringify(request.body) };
          await fc.assert(
            fc.asyncProperty(headerChoices, (choices) =>
              probe(
                () => send(method, request.path, choiceHeaders(choices, w), body),
                (res) => {
                  const where = `${describeResponse(method, request.path, res)} to ${JSON.stringify(choices)}`;
                  expectWellFormed(target, res, where);
                  if (!authenticates(target, choices)) {
                    expect(res.status, `${where}: let through`).to.equal(401);
                    expect(AUTH_CODES, where).to.include(res.body.error.code);
                  } else if (onlyValidOrAbsent(choices)) {
                    expect(res.status, `${where}: valid credentials refused`).to.equal(request.status);
                  } else {
                    // A valid set beside a broken header: refusing is as right as letting through.
                    expect([request.status, 401], where).to.include(res.status);
                  }
                  return { where, accepted: false };
                },
              ),
            ),
            { numRuns: CREDENTIAL_RUNS },
          );
        });
      }

      it('when path, query and body values are hostile, then every answer is documented and a refused request changes nothing', async function () {
        this.timeout(30_000);
        const headers = validHeaders(target, w);
        await fc.assert(
          fc.asyncProperty(hostileRequest(target, w), ({ path, body }) =>
            probe(
              () => send(method, path, headers, body),
              (res) => {
                const sent = body.oversized
                  ? `a body of ${body.oversized} bytes`
                  : body.text === undefined
                    ? 'no body'
                    : `body ${body.text.slice(0, 200)}`;
                const where = `${describeResponse(method, path, res)} to ${sent}`;
                expectWellFormed(target, res, where);
                return { where, accepted: target.changes(res) };
              },
            ),
          ),
          { numRuns: HOSTILE_RUNS, examples: pinnedRequests(target, w).map((request) => [request]) },
        );
      });
    });
  }

  it('when the OpenAPI document lists an operation, then it is fuzzed (operations endpoints aside)', () => {
    const documented = Object.entries(openApiDocument(ENDPOINTS).paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((operation) => !/ \/(healthz|readyz|metrics|openapi\.json|docs|docs\/assets\/\{file\})$/.test(operation));
    const fuzzed = new Set(FUZZ_TARGETS.map((target: FuzzTarget) => target.operation));
    expect(
      documented.filter((operation) => !fuzzed.has(operation)),
      'operations nobody fuzzes',
    ).to.deep.equal([]);
  });
});
