import type { RedisClient } from './redis.js';
import type { Logger } from './logger.js';

export type Invalidation =
  | { kind: 'keys' }
  | { kind: 'player'; playerId: string }
  | { kind: 'leaderboards' }
  | { kind: 'clans' }
  | { kind: 'all' };

/**
 * Tells every API process that cached credentials or metadata changed. A change is applied in the
 * calling process at once and published on Redis for the others; a process whose subscription
 * dropped drops all its caches when it comes back, since it may have missed a message.
 */
export class Invalidator {
  private readonly listeners = new Set<(change: Invalidation) => void>();

  constructor(
    private readonly publisher: RedisClient,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  onChange(listener: (change: Invalidation) => void): void {
    this.listeners.add(listener);
  }

  /** Subscribes with its own connection (a subscribed connection can run no other command). */
  async listen(subscriber: RedisClient): Promise<void> {
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) {
        this.logger.warn('invalidation subscription restored; dropping all caches');
        this.dispatch({ kind: 'all' });
      }
      connectedBefore = true;
    });
    // On a cluster, losing the node that held the subscription (a failover) may lose messages too.
    subscriber.on('-node', () => this.dispatch({ kind: 'all' }));
    subscriber.on('message', (_channel: string, message: string) => this.dispatch(decode(message)));
    await subscriber.subscribe(this.channel);
    connectedBefore = true;
  }

  keysChanged = () => this.announce({ kind: 'keys' });
  playerChanged = (playerId: string) => this.announce({ kind: 'player', playerId });
  leaderboardsChanged = () => this.announce({ kind: 'leaderboards' });
  clansChanged = () => this.announce({ kind: 'clans' });

  private async announce(change: Invalidation): Promise<void> {
    this.dispatch(change);
    await this.publisher.publish(this.channel, encode(change));
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
