import type { CredentialKind as Credentials } from '../../api/middleware/auth.js';
import { ADMIN } from '../helpers/fixtures.js';
import { forgedToken, type GameWorld } from './world.js';

/**
 * How an endpoint authenticates: its descriptor's credentials (those that take any), e.g. the
 * publishable key alone (signup), a game client (publishable key + anonymous token), the secret
 * key, either of those two (a player's record), a third-party key, the admin token, the anonymous
 * token in ?token= (the web page), or the metrics token (Authorization: Bearer, like the admin token).
 */
export type Auth = Exclude<Credentials, 'none'>;

export type AuthCode = 'missing_key' | 'invalid_key' | 'missing_token' | 'invalid_token' | 'missing_admin_token' | 'invalid_admin_token';

/**
 * 'accepted': the endpoint lets the credential through; the row says what it then answers.
 * 'signIn': a dashboard page without a session sends the browser to sign in (303).
 */
export type Verdict = AuthCode | 'accepted' | 'signIn';

export type KindKey =
  | 'none'
  | 'garbage'
  | 'admin'
  | 'thirdParty'
  | 'revokedThirdParty'
  | 'otherPublishable'
  | 'otherClient'
  | 'otherSecret'
  | 'otherThirdParty'
  | 'otherToken'
  | 'forgedToken'
  | 'publishable'
  | 'client'
  | 'secret'
  | 'otherSession'
  | 'session';

export interface CredentialKind {
  key: KindKey;
  name: string;
  /** Whose credential it is: the game under test's, the other game's, or nobody's. */
  owner: 'this' | 'other' | 'none';
  /** A dashboard session cookie (its forms also carry the session's CSRF token). */
  session?: true;
  /** Whose anonymous token it carries, when it carries one (what the web page reads). */
  tokenOwner?: 'this' | 'other';
  headers(a: GameWorld, b: GameWorld): Record<string, string>;
  verdicts: Record<Auth, Verdict>;
}

const OK = 'accepted';
/** No header credential is a dashboard session. */
const noSession = { dashboard: 'signIn', dashboardAdmin: 'signIn' } as const;

/** Refusals by header name: what an endpoint answers when its header is absent from a credential. */
const noKey = {
  publishableKey: 'missing_key',
  gameClient: 'missing_key',
  secretKey: 'missing_key',
  serverOrClient: 'missing_key',
  thirdParty: 'missing_key',
  metrics: 'missing_token',
} as const;

/** A publishable key without a player token, of either game. */
const publishableAlone = {
  ...noKey,
  ...noSession,
  publishableKey: OK,
  gameClient: 'missing_token',
  serverOrClient: 'missing_token',
  admin: 'missing_admin_token',
  pageToken: 'missing_token',
} as const;

const pk = (w: GameWorld) => ({ 'Publishable-Key': w.game.publishableKey });
const token = (w: GameWorld) => ({ 'Anonymous-Authorization': `Bearer ${w.player.token}` });

/** Each kind as written below: a live stream's token (playerToken) is judged as the web page's, added after. */
type WrittenKind = Omit<CredentialKind, 'verdicts'> & { verdicts: Omit<CredentialKind['verdicts'], 'playerToken'> };

const WRITTEN_KINDS: WrittenKind[] = [
  {
    key: 'none',
    name: 'no credentials',
    owner: 'none',
    headers: () => ({}),
    verdicts: {
      ...noSession,
      ...noKey,
      admin: 'missing_admin_token',
      pageToken: 'missing_token',
    },
  },
  {
    key: 'garbage',
    name: 'garbage in every credential header',
    owner: 'none',
    headers: () => ({
      'Publishable-Key': 'pk_garbage',
      'Anonymous-Authorization': 'Bearer not-a-token',
      'Secret-Key': 'sk_garbage',
      'Api-Key': 'tpk_garbage',
      Authorization: 'Bearer garbage',
    }),
    verdicts: {
      ...noSession,
      publishableKey: 'invalid_key',
      gameClient: 'invalid_key',
      secretKey: 'invalid_key',
      serverOrClient: 'invalid_key',
      thirdParty: 'invalid_key',
      admin: 'invalid_admin_token',
      pageToken: 'invalid_token',
      metrics: 'invalid_token',
    },
  },
  {
    key: 'admin',
    name: 'the admin token',
    owner: 'none',
    headers: () => ADMIN,
    verdicts: {
      ...noSession,
      ...noKey,
      admin: OK,
      pageToken: 'missing_token',
      metrics: 'invalid_token',
    },
  },
  {
    key: 'thirdParty',
    name: "this game's third-party key",
    owner: 'this',
    headers: (a) => ({ 'Api-Key': a.apiKey }),
    verdicts: {
      ...noSession,
      ...noKey,
      thirdParty: OK,
      admin: 'missing_admin_token',
      pageToken: 'missing_token',
    },
  },
  {
    key: 'revokedThirdParty',
    name: "this game's revoked third-party key",
    owner: 'this',
    headers: (a) => ({ 'Api-Key': a.revokedKey }),
    verdicts: {
      ...noSession,
      ...noKey,
      thirdParty: 'invalid_key',
      admin: 'missing_admin_token',
      pageToken: 'missing_token',
    },
  },
  {
    key: 'otherPublishable',
    name: "the other game's publishable key",
    owner: 'other',
    headers: (_a, b) => pk(b),
    verdicts: publishableAlone,
  },
  {
    key: 'otherClient',
    name: "the other game's publishable key and token",
    owner: 'other',
    tokenOwner: 'other',
    headers: (_a, b) => ({ ...pk(b), ...token(b) }),
    verdicts: {
      ...noSession,
      ...noKey,
      publishableKey: OK,
      gameClient: OK,
      serverOrClient: OK,
      admin: 'missing_admin_token',
      pageToken: OK,
    },
  },
  {
    key: 'otherSecret',
    name: "the other game's secret key",
    owner: 'other',
    headers: (_a, b) => ({ 'Secret-Key': b.game.secretKey }),
    verdicts: {
      ...noSession,
      ...noKey,
      secretKey: OK,
      serverOrClient: OK,
      admin: 'missing_admin_token',
      pageToken: 'missing_token',
    },
  },
  {
    key: 'otherThirdParty',
    name: "the other game's third-party key",
    owner: 'other',
    headers: (_a, b) => ({ 'Api-Key': b.apiKey }),
    verdicts: {
      ...noSession,
      ...noKey,
      thirdParty: OK,
      admin: 'missing_admin_token',
      pageToken: 'missing_token',
    },
  },
  {
    key: 'otherToken',
    name: "this game's publishable key with the other game's token",
    owner: 'this',
    tokenOwner: 'other',
    headers: (a, b) => ({ ...pk(a), ...token(b) }),
    verdicts: {
      ...noSession,
      ...noKey,
      publishableKey: OK,
      gameClient: 'invalid_token',
      serverOrClient: 'invalid_token',
      admin: 'missing_admin_token',
      pageToken: OK,
    },
  },
  {
    key: 'forgedToken',
    name: "this game's publishable key with a forged token",
    owner: 'this',
    headers: (a) => ({ ...pk(a), 'Anonymous-Authorization': forgedToken(a) }),
    verdicts: {
      ...noSession,
      ...noKey,
      publishableKey: OK,
      gameClient: 'invalid_token',
      serverOrClient: 'invalid_token',
      admin: 'missing_admin_token',
      pageToken: 'invalid_token',
    },
  },
  {
    key: 'publishable',
    name: "this game's publishable key alone",
    owner: 'this',
    headers: (a) => pk(a),
    verdicts: publishableAlone,
  },
  {
    key: 'client',
    name: "this game's publishable key and token",
    owner: 'this',
    tokenOwner: 'this',
    headers: (a) => ({ ...pk(a), ...token(a) }),
    verdicts: {
      ...noSession,
      ...noKey,
      publishableKey: OK,
      gameClient: OK,
      serverOrClient: OK,
      admin: 'missing_admin_token',
      pageToken: OK,
    },
  },
  {
    key: 'secret',
    name: "this game's secret key",
    owner: 'this',
    headers: (a) => ({ 'Secret-Key': a.game.secretKey }),
    verdicts: {
      ...noSession,
      ...noKey,
      secretKey: OK,
      serverOrClient: OK,
      admin: 'missing_admin_token',
      pageToken: 'missing_token',
    },
  },
  {
    key: 'otherSession',
    name: "the other game's dashboard session",
    owner: 'other',
    session: true,
    headers: (_a, b) => ({ Cookie: b.dashboard.cookie }),
    verdicts: { ...noKey, admin: 'missing_admin_token', pageToken: 'missing_token', dashboard: OK, dashboardAdmin: 'signIn' },
  },
  {
    key: 'session',
    name: "this game's dashboard session",
    owner: 'this',
    session: true,
    headers: (a) => ({ Cookie: a.dashboard.cookie }),
    verdicts: { ...noKey, admin: 'missing_admin_token', pageToken: 'missing_token', dashboard: OK, dashboardAdmin: 'signIn' },
  },
];

/**
 * A live stream reads the token from Anonymous-Authorization (the matrix sends it there) as the web
 * page reads it from ?token=: every kind gets the same answer from both.
 */
export const CREDENTIAL_KINDS: CredentialKind[] = WRITTEN_KINDS.map((kind) => ({
  ...kind,
  verdicts: { ...kind.verdicts, playerToken: kind.verdicts.pageToken },
}));
