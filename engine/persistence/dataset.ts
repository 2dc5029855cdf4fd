import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { datasetKey } from '../live/keys.js';
import { requestRebuild } from '../live/rebuild-requests.js';
import { hasKeysWithPrefix, unlinkKeysWithPrefix, type RedisClient } from '../live/redis.js';
import type { SystemStore } from '../system-store.js';

/** A Redis that holds another database's data (or an older version's, which wrote no identity). */
export class DatasetMismatchError extends Error {}

export type DatasetState = 'same' | 'claimed' | 'replaced' | 'lost';

/**
 * How long a starting process waits for a marker when Redis holds keys under the prefix but none:
 * after a loss, the running processes of this deployment may write keys (a report counter's flush, a
 * pending index entry) before one of them puts the marker back, which each does within a second
 * (`watch`). Only keys that stay without a marker this long are another dataset's.
 */
const MARKER_GRACE_MS = 3_000;
const MARKER_POLL_MS = 200;

/**
 * Ties Redis to its PostgreSQL database. The database's identity (created with it) stands in Redis
 * once per node and key prefix; it is at once the guard against serving another deployment's data
 * (internal ids restart at 1 in every database, so its keys would read as this one's) and the
 * marker whose absence tells that a node lost its data: one read per node and sweep, however many
 * leaderboards there are. Whatever needs rebuilding is then asked of the rebuild (its cursor is set
 * before the marker, so a process dying in between leaves the request standing).
 */
export class DatasetGuard {
  private identity: string | undefined;

  constructor(
    private readonly deps: {
      redis: RedisClient;
      system: SystemStore;
      prefix: string;
    },
  ) {}

  /**
   * At start-up. Same identity everywhere: nothing to do. Some nodes without it: they lost their data
   * (rebuild). None has it: an empty Redis takes it (and rebuilds whatever PostgreSQL holds); one with
   * keys under the prefix is another dataset's. Another identity anywhere: another dataset's. Another
   * dataset's Redis is refused, or with `replaceMismatch` emptied and rebuilt from PostgreSQL.
   */
  async verify({ replaceMismatch }: { replaceMismatch: boolean }, graceMs = MARKER_GRACE_MS): Promise<DatasetState> {
    const first = await this.inspect();
    const { identity, markers } = first;
    let { foreign, missing } = first;
    const unmarkedKeys = async () => markers.length === missing.length && (await hasKeysWithPrefix(this.deps.redis, this.deps.prefix));
    // Keys with no marker: give a running process of this deployment the time to put it back.
    for (const deadline = Date.now() + graceMs; !foreign && Date.now() < deadline && (await unmarkedKeys());) {
      await new Promise((resolve) => setTimeout(resolve, MARKER_POLL_MS));
      ({ foreign, missing } = await this.inspect());
    }
    const present = markers.length - missing.length;
    let problem: string | undefined;
    if (foreign) {
      problem = `Redis holds the data of dataset ${foreign}, not of this database (${identity})`;
    } else if (present === 0 && (await hasKeysWithPrefix(this.deps.redis, this.deps.prefix))) {
      problem = `Redis holds keys under the prefix '${this.deps.prefix}' but no dataset identity (written by an older version, or by another deployment); this database is ${identity}`;
    }
    if (problem) {
      if (!replaceMismatch) {
        throw new DatasetMismatchError(
          `${problem}. Point REDIS_URL or REDIS_KEY_PREFIX elsewhere, or set REBUILD_ON_DATASET_MISMATCH=1 to empty the prefix and rebuild from PostgreSQL.`,
        );
      }
      await unlinkKeysWithPrefix(this.deps.redis, this.deps.prefix);
      await this.claim(markers, identity);
      return 'replaced';
    }
    if (missing.length === 0) return 'same';
    await this.claim(missing, identity);
    return present === 0 ? 'claimed' : 'lost';
  }

  /**
   * While running: a node without the marker lost its data since start-up (it restarted empty, or a
   * replica without it took over): the marker is put back and a rebuild requested. Another identity
   * means another deployment took this Redis over: stop serving.
   */
  async detectLoss(): Promise<boolean> {
    const { identity, foreign, missing } = await this.inspect();
    if (foreign) throw new DatasetMismatchError(`Redis now holds the data of dataset ${foreign}, not of this database (${identity}).`);
    if (missing.length === 0) return false;
    await this.claim(missing, identity);
    return true;
  }

  /**
   * Looks for a lost marker once a second until the returned stop is called, so every process of
   * the deployment notices a lost dataset by itself and puts the marker back within a second, even
   * with no request touching a board (a loss found is also a rebuild asked for).
   */
  watch(onLoss: () => void, onError: (error: unknown) => void, everyMs = 1_000): () => void {
    let looking = false;
    const timer = setInterval(() => {
      if (looking) return;
      looking = true;
      this.detectLoss()
        .then((lost) => lost && onLoss(), onError)
        .finally(() => (looking = false));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async claim(keys: string[], identity: string): Promise<void> {
    await requestRebuild(this.deps.redis, this.deps.prefix, 'lost');
    for (const key of keys) {
      if ((await this.deps.redis.set(key, identity, 'NX')) === 'OK') continue;
      const holder = await this.deps.redis.get(key);
      if (holder !== identity)
        throw new DatasetMismatchError(
          `Another deployment (dataset ${holder}) claimed this Redis at the same time as this database (${identity}).`,
        );
    }
  }

  private async databaseIdentity(): Promise<string> {
    this.identity ??= await this.deps.system.datasetIdentity();
    return this.identity;
  }

  /** Every node's marker key, the identity another dataset left on any of them, and the keys without one. */
  private async inspect(): Promise<{ identity: string; markers: string[]; foreign: string | undefined; missing: string[] }> {
    const identity = await this.databaseIdentity();
    const markers = this.markerKeys();
    const values = await Promise.all(markers.map((key) => this.deps.redis.get(key)));
    return {
      identity,
      markers,
      foreign: values.find((value) => value !== null && value !== identity) ?? undefined,
      missing: markers.filter((_, i) => values[i] === null),
    };
  }

  /** One marker key per node: on a cluster, in the lowest slot each master serves. */
  private markerKeys(): string[] {
    if (!(this.deps.redis instanceof Cluster)) return [datasetKey(this.deps.prefix, 'node')];
    const firstSlots = new Map<string, number>();
    this.deps.redis.slots.forEach((nodes, slot) => {
      const master = nodes?.[0];
      if (master && !firstSlots.has(master)) firstSlots.set(master, slot);
    });
    if (firstSlots.size === 0) throw new Error('the Redis Cluster has not shared its slots yet');
    return [...firstSlots.values()].map((slot) => datasetKey(this.deps.prefix, tagForSlot(slot)));
  }
}

const tags = new Map<number, string>();

/** A short hash tag that falls in the given Cluster slot (found by trying; cached). */
function tagForSlot(slot: number): string {
  let tag = tags.get(slot);
  for (let i = 0; tag === undefined; i += 1) {
    if (calculateSlot(`n${i}`) === slot) tag = `n${i}`;
  }
  tags.set(slot, tag);
  return tag;
}
