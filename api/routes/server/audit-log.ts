import { auditLogView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { AuditLog } from '../responses.js';
import { beforeEntry, limit, object } from '../schemas.js';

/** The game's audit log: who changed what, for the game server (and later the dashboard). */
export const serverAuditLogEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/server/audit_log',
    operationId: 'listAuditLog',
    tag: 'Game server',
    summary: "The game's audit log, newest first, a page at a time",
    description:
      'Every change made with the Secret-Key or the admin token (leaderboards, clans, player changes, third-party keys, secret key rotations) and every scheduled reset, newest first, `limit` at a time. Pass `next_before` as `before` for the next page; it is null on the last one. Score reports are not recorded, and no entry holds a key.',
    credentials: 'secretKey',
    query: object({ limit, before: beforeEntry }),
    responses: { 200: { schema: AuditLog } },
    errors: [400],
    async handler({ caller, query, app }) {
      return { status: 200, body: auditLogView(await app.engine.auditLog.page(caller.game.id, query.before, query.limit)) };
    },
  }),
];
