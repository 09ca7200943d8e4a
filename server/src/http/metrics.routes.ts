/**
 * `GET /metrics` in Prometheus' text format on the app's own port (issue 16), and the HTTP
 * latency histogram every response feeds. With METRICS_TOKEN set the scrape must send
 * `Authorization: Bearer <token>` (401 problem+json otherwise); production sets it, because the
 * figures tell an outsider how busy the installation is. Gauges about the shared database are
 * read at scrape time, each scrape bounded to 2 s so a database outage cannot hang it.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import { ALERT_KINDS } from '@heizplan/contracts/alerts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  alertsOpen,
  brokerUp,
  databaseUp,
  downlinksUnpublished,
  httpRequestDuration,
  registry,
  schedulerLag,
  webhookDeliveriesPending,
} from '../metrics.ts';
import { sendProblem } from './errors.ts';

const SCRAPE_QUERY_TIMEOUT_MS = 2000;

/** Constant-time comparison of the presented bearer token with the configured one. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = header?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** Reads the gauges that describe the database every instance shares. */
async function readSharedGauges(app: FastifyInstance) {
  brokerUp.set(app.deps.lorawan?.brokerConnected ? 1 : 0);
  let timer: NodeJS.Timeout | undefined;
  try {
    const query = app.deps.database.db.execute(sql`
      select
        (select count(*) from downlinks where published_at is null and state = 'queued') as unpublished,
        (select coalesce(extract(epoch from now() - min(next_change_at)), 0)
           from units where next_change_at <= now()) as lag,
        (select count(*) from webhook_deliveries where status = 'pending') as webhooks_pending,
        (select coalesce(jsonb_object_agg(kind, n), '{}'::jsonb)
           from (select kind, count(*) as n from alerts where state = 'open' group by kind) k) as alerts_open`);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), SCRAPE_QUERY_TIMEOUT_MS);
    });
    const result = await Promise.race([query, timeout]);
    const [row] = (
      result as unknown as {
        rows: {
          unpublished: string;
          lag: string;
          webhooks_pending: string;
          alerts_open: Record<string, number>;
        }[];
      }
    ).rows;
    databaseUp.set(1);
    downlinksUnpublished.set(Number(row?.unpublished ?? 0));
    schedulerLag.set(Number(row?.lag ?? 0));
    webhookDeliveriesPending.set(Number(row?.webhooks_pending ?? 0));
    for (const kind of ALERT_KINDS) alertsOpen.set({ kind }, Number(row?.alerts_open?.[kind] ?? 0));
  } catch {
    databaseUp.set(0);
  } finally {
    clearTimeout(timer);
  }
}

/** Adds the latency histogram hook (for routes registered after it) and the `/metrics` route. */
export function installMetrics(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: ids in paths would make a time series per resource.
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const token = app.deps.config.metricsToken;
    if (token && !bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendProblem(
        reply,
        401,
        'Unauthorized',
        'Scraping the metrics needs the bearer token of METRICS_TOKEN.',
      );
    }
    await readSharedGauges(app);
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
}
