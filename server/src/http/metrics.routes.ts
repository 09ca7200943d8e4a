/**
 * `GET /metrics` in Prometheus' text format on the app's own port, and the HTTP
 * latency histogram every response feeds. With METRICS_TOKEN set the scrape must send
 * `Authorization: Bearer <token>` (401 problem+json otherwise); production sets it, because the
 * figures tell an outsider how busy the installation is. Gauges about the shared database are
 * read at scrape time, each scrape bounded to 2 s so a database outage cannot hang it.
 */

import { ALERT_KINDS } from '@heizplan/contracts/alerts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
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
import type { LorawanStatus } from '../ports.ts';
import { bearerTokenMatches } from './bearer-token.ts';
import { sendProblem } from './errors.ts';
import { readSharedGauges } from './metrics.repository.ts';

const SCRAPE_QUERY_TIMEOUT_MS = 2000;

export interface MetricsOptions {
  db: Db;
  /** METRICS_TOKEN; unset = the scrape needs no token. */
  metricsToken?: string | undefined;
  /** The LoRaWAN side (broker gauge); absent in an app without one. */
  lorawanStatus?: LorawanStatus | undefined;
}

/** Sets the gauges that describe the broker and the shared database; the database down on failure. */
async function updateSharedGauges({ db, lorawanStatus }: MetricsOptions) {
  brokerUp.set(lorawanStatus?.current?.brokerConnected ? 1 : 0);
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), SCRAPE_QUERY_TIMEOUT_MS);
    });
    const gauges = await Promise.race([readSharedGauges(db), timeout]);
    databaseUp.set(1);
    downlinksUnpublished.set(gauges.unpublished);
    schedulerLag.set(gauges.lag);
    webhookDeliveriesPending.set(gauges.webhookDeliveriesPending);
    for (const kind of ALERT_KINDS) alertsOpen.set({ kind }, Number(gauges.alertsOpen[kind] ?? 0));
  } catch {
    databaseUp.set(0);
  } finally {
    clearTimeout(timer);
  }
}

/** Adds the latency histogram hook (for routes registered after it) and the `/metrics` route. */
export function installMetrics(app: FastifyInstance, options: MetricsOptions) {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: ids in paths would make a time series per resource.
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const token = options.metricsToken;
    if (token && !bearerTokenMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendProblem(
        reply,
        401,
        'Unauthorized',
        'Scraping the metrics needs the bearer token of METRICS_TOKEN.',
      );
    }
    await updateSharedGauges(options);
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
}
