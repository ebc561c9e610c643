import type { LookupFunction } from 'node:net';
import { Pool } from 'undici';
import type { ResolvedAddress } from './address-policy.js';

export interface OutboundPoolsOptions {
  /** Pools kept at most; past it the least recently used one is closed (gracefully: requests in flight finish). */
  maxPools: number;
  /** Connections at most per (origin, checked address). */
  connectionsPerPool: number;
  /** A pool unused this long is closed (its idle sockets with it). */
  idleMs: number;
  /** How long an idle socket stays open for the next request when the server gives no keep-alive hint. */
  keepAliveMs: number;
  /** The longest a server's keep-alive hint (`Keep-Alive: timeout=N`, less 2 s) keeps an idle socket open. */
  keepAliveMaxMs: number;
}

export const DEFAULT_POOL_OPTIONS: OutboundPoolsOptions = {
  maxPools: 256,
  connectionsPerPool: 64,
  idleMs: 30_000,
  keepAliveMs: 4_000,
  keepAliveMaxMs: 60_000,
};

interface Entry {
  pool: Pool;
  origin: string;
  address: string;
  lastUsed: number;
}

/**
 * Keep-alive connections for outbound calls, one undici Pool per (origin, checked address). The caller
 * checks the URL at every call (`validateOutboundUrl`: the name is resolved again and every answer must pass)
 * and asks for the pool of the address that passed: a connection is only ever reused for an address that
 * passed the check of the current call. Every pool connects to its own address only (its `lookup` answers
 * that address, so the HTTP client never resolves the name again), and keeps the URL's host for the `Host`
 * header and the TLS server name. When the name answers differently, the new address gets a new pool (new
 * connections), and the pools of that origin at addresses no longer in the answer are closed.
 * Bounded: at most `maxPools` pools (least recently used closed first), and a pool unused for `idleMs`
 * is closed by a sweep; idle sockets themselves close after the server's keep-alive hint (at most
 * `keepAliveMaxMs`) or `keepAliveMs` without one.
 */
export class OutboundPools {
  readonly #opts: OutboundPoolsOptions;
  /** Insertion order is recency of use: a use moves the entry to the end. */
  readonly #pools = new Map<string, Entry>();
  /** Pools retired and closing gracefully. */
  readonly #closing = new Set<Pool>();
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(opts: Partial<OutboundPoolsOptions> = {}, now: () => number = () => performance.now()) {
    this.#opts = { ...DEFAULT_POOL_OPTIONS, ...opts };
    this.#now = now;
  }

  /** Pools open now (for tests and metrics). */
  get size(): number {
    return this.#pools.size;
  }

  /** The checked addresses that have an open pool for `origin`. */
  addressesOf(origin: string): string[] {
    return [...this.#pools.values()].filter((e) => e.origin === origin).map((e) => e.address);
  }

  /**
   * The pool for `url`'s origin pinned to `target` (an address the caller has just checked). `current` is
   * every address the name answers now: pools of this origin at other addresses are closed.
   */
  pool(url: URL, target: ResolvedAddress, current: readonly ResolvedAddress[], connectTimeoutMs: number): Pool {
    if (this.#closed) throw new Error('outbound pools are closed');
    const origin = url.origin;
    const key = `${origin}|${target.address}|${connectTimeoutMs}`;
    let entry = this.#pools.get(key);
    if (entry) {
      this.#pools.delete(key);
    } else {
      this.#retireOthers(origin, new Set(current.map((a) => a.address)));
      entry = {
        pool: new Pool(origin, {
          connections: this.#opts.connectionsPerPool,
          pipelining: 1,
          keepAliveTimeout: this.#opts.keepAliveMs,
          keepAliveMaxTimeout: this.#opts.keepAliveMaxMs,
          connectTimeout: connectTimeoutMs,
          connect: { lookup: pinnedLookup(target) },
        }),
        origin,
        address: target.address,
        lastUsed: 0,
      };
      this.#evictBeyond(this.#opts.maxPools - 1);
    }
    entry.lastUsed = this.#now();
    this.#pools.set(key, entry);
    this.#arm();
    return entry.pool;
  }

  /** Closes the pools unused for `idleMs` (run by a timer; tests call it with their own time). */
  sweepIdle(now = this.#now()): void {
    for (const [key, entry] of this.#pools) {
      if (now - entry.lastUsed >= this.#opts.idleMs) this.#retire(key, entry);
    }
    if (this.#pools.size === 0) this.#disarm();
  }

  /**
   * The process is closing: every pool is destroyed, and requests still in flight on it fail (the
   * webhook worker has aborted and released its attempts by then).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#disarm();
    const pools = [...this.#pools.values()].map((e) => e.pool).concat([...this.#closing]);
    this.#pools.clear();
    this.#closing.clear();
    await Promise.allSettled(pools.map((p) => p.destroy()));
  }

  #retireOthers(origin: string, keep: Set<string>): void {
    for (const [key, entry] of this.#pools) {
      if (entry.origin === origin && !keep.has(entry.address)) this.#retire(key, entry);
    }
  }

  #evictBeyond(max: number): void {
    for (const [key, entry] of this.#pools) {
      if (this.#pools.size <= max) break;
      this.#retire(key, entry);
    }
  }

  /** Graceful: requests already running on the pool finish, then its sockets close. */
  #retire(key: string, entry: Entry): void {
    this.#pools.delete(key);
    this.#closing.add(entry.pool);
    void entry.pool
      .close()
      .catch(() => undefined)
      .finally(() => this.#closing.delete(entry.pool));
  }

  #arm(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.sweepIdle(), Math.max(1000, Math.floor(this.#opts.idleMs / 2)));
    this.#timer.unref();
  }

  #disarm(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** Answers every lookup with the checked address, in both the single and the `all` callback shapes. */
export function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
