/**
 * Where `@fastify/rate-limit` counts (docs/decisions/0032). One instance keeps its counters in
 * memory (the plugin's LRU store). Several instances (INSTANCES > 1) count together in the
 * database table `rate_limit_windows`: otherwise each would allow the full limit and a client
 * behind a round-robin balancer would get N times as many requests through. Windows are fixed
 * (like the memory store's): the first hit opens one of `timeWindow` ms, later hits count in it.
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { hit, purgeRateLimitWindows } from './http.repository.ts';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** Expired windows are deleted at most this often per process (idempotent across instances). */
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Registration options of the rate-limit plugin for one group of routes; `namespace` keeps the
 * groups' keys apart in the shared table.
 */
export function rateLimitOptions(config: Config, db: Db, namespace: string): RateLimitPluginOptions {
  if (config.instances === 1) return { global: false };
  return { global: false, store: databaseRateLimitStore(db, namespace) as never };
}

/**
 * A store class in the shape the plugin instantiates (`new Store(options)`, `incr`, `child`).
 * Each route (or `app.rateLimit` limiter) gets a child whose keys carry the route, as the memory
 * store keeps one map per route. @throws nothing itself: a failing query reaches the plugin,
 * which answers the request with an error rather than letting it through.
 */
export function databaseRateLimitStore(db: Db, namespace: string) {
  let lastPurge = 0;
  return class DatabaseRateLimitStore {
    private readonly prefix: string;

    constructor(options: { routeInfo?: { method?: string | string[]; url?: string } } = {}) {
      const route = options.routeInfo?.url
        ? `${String(options.routeInfo.method)} ${options.routeInfo.url}:`
        : '';
      this.prefix = `${namespace}:${route}`;
    }

    incr(key: string, callback: Callback, timeWindow: number) {
      hit(db, `${this.prefix}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (err: Error) => callback(err),
      );
      if (Date.now() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = Date.now();
        void purgeRateLimitWindows(db).catch(() => {});
      }
    }

    child(options: { routeInfo?: { method?: string | string[]; url?: string } }) {
      return new DatabaseRateLimitStore(options);
    }
  };
}

export { hit };
