import { endpoint } from '../endpoint.js';
import { Token } from '../responses.js';
import { deviceId, object, optional } from '../schemas.js';

/**
 * An anonymous token for a device; the same device always gets the same player. So a device id is a
 * bearer secret: MIN_DEVICE_ID_LENGTH can refuse ids too short to be unguessable.
 */
export const signupEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/signup/anonymous',
    operationId: 'signUpAnonymous',
    tag: 'Game client',
    summary: 'Get an anonymous player token for a device',
    description:
      'The same device_id in the same game always returns the same player (200); a new one 201. The body is optional. ' +
      'A device_id is a bearer secret: whoever knows it gets that player. Send a random UUID created once per install, ' +
      'never a hardware serial or anything else another party can know or guess. The service may require a minimum ' +
      'length (MIN_DEVICE_ID_LENGTH, default 1); a shorter one is 400 validation_failed.',
    credentials: 'publishableKey',
    rateLimit: 'signups',
    body: (config) =>
      object({
        device_id: optional(
          deviceId
            .min(config.minDeviceIdLength)
            .description('A random UUID per install (a bearer secret)')
            .example('0b7c5d0e-8f43-4a55-9d2f-3c1e6f0a9b12'),
        ),
      }),
    responses: {
      201: { schema: Token, description: 'A new player (200 with the same body for a known device)' },
      200: { schema: Token, description: 'Also 200' },
    },
    errors: [],
    changed: (reply) => reply.status === 201,
    async handler({ caller, body, app }) {
      const { player, token, created } = await app.engine.players.signup(caller.game.id, body.device_id ?? null);
      return { status: created ? 201 : 200, body: { token, player_id: player.id } };
    },
  }),
];
