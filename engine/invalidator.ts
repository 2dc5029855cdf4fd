import type { RedisClient } from './live/redis.js';
import type { Logger } from './logger.js';

export type Invalidation =
  { kind: 'keys' } | { kind: 'player'; playerId: string } | { kind: 'leaderboards' } | { kind: 'clans' } | { kind: 'all' };

/**
 * Tells every API process that cached credentials or metadata changed. A change is applied in the
 * calling process at once and published on Redis for the others. A process whose subscription
 * drops may miss messages: it drops all its caches when the connection closes and again when the
 * subscription is back, and `listening` tells caches that must be exact not to keep anything between.
 */
export class Invalidator {
  private readonly listeners = new Set<(change: Invalidation) => void>();
  /** True while the subscription is up, so every change announced meanwhile arrives. */
  listening = false;

  constructor(
    private readonly deps: {
      publisher: RedisClient;
      channel: string;
      logger: Logger;
    },
  ) {}

  onChange(listener: (change: Invalidation) => void): void {
    this.listeners.add(listener);
  }

  /** Subscribes with its own connection (a subscribed connection can run no other command). */
  async listen(subscriber: RedisClient): Promise<void> {
    let connectedBefore = false;
    // ioredis has already sent the SUBSCRIBE again when 'ready' is emitted.
    subscriber.on('ready', () => {
      // Subscribed again on every connection, not only by ioredis's own resubscription: a
      // connection that dropped before the first SUBSCRIBE was answered came back subscribed to
      // nothing, and the process then kept revoked credentials (seen as a second API process that
      // accepted revoked keys for the rest of its life). SUBSCRIBE twice is harmless.
      subscriber.subscribe(this.deps.channel).catch(() => undefined);
      if (connectedBefore) {
        this.deps.logger.warn('invalidation subscription restored; dropping all caches');
        this.dispatch({ kind: 'all' });
      }
      connectedBefore = true;
      this.listening = true;
    });
    subscriber.on('close', () => {
      if (!this.listening) return;
      this.listening = false;
      this.dispatch({ kind: 'all' });
    });
    // On a cluster, losing the node that held the subscription (a failover) may lose messages too.
    subscriber.on('-node', () => this.dispatch({ kind: 'all' }));
    // The connection also carries the live leaderboards' channels (engine/events/live-feed.ts).
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.deps.channel) this.dispatch(decode(message));
    });
    await subscriber.subscribe(this.deps.channel);
    connectedBefore = true;
    this.listening = true;
  }

  keysChanged = () => this.announce({ kind: 'keys' });
  playerChanged = (playerId: string) => this.announce({ kind: 'player', playerId });
  leaderboardsChanged = () => this.announce({ kind: 'leaderboards' });
  clansChanged = () => this.announce({ kind: 'clans' });

  private async announce(change: Invalidation): Promise<void> {
    this.dispatch(change);
    await this.deps.publisher.publish(this.deps.channel, encode(change));
  }

  private dispatch(change: Invalidation): void {
    for (const listener of this.listeners) listener(change);
  }
}

function encode(change: Invalidation): string {
  return change.kind === 'player' ? `player:${change.playerId}` : change.kind;
}

function decode(message: string): Invalidation {
  if (message.startsWith('player:')) return { kind: 'player', playerId: message.slice('player:'.length) };
  if (message === 'keys' || message === 'leaderboards' || message === 'clans') return { kind: message };
  return { kind: 'all' };
}
