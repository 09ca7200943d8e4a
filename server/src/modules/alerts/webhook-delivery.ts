/**
 * Delivers alert changes to the companies' webhook endpoints (decision 0024). Each
 * delivery is a JSON POST signed with HMAC-SHA256 over `<timestamp>.<body>` with the endpoint's
 * secret, sent as `Heizplan-Signature: t=<unix seconds>,v1=<hex>` (README: how a receiver
 * verifies it). A delivery that does not get a 2xx within 10 s is retried with exponential
 * backoff (30 s, 1 min, 2 min, … at most 6 h) and given up after 8 attempts. Deliveries are
 * claimed with `for update skip locked` and a 2-minute lease, so instances share the work and
 * a slow endpoint holds nothing but its own deliveries; ingest never waits for any of it.
 */
import { createHmac } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries } from '../../metrics.ts';
import { claimDueWebhookDeliveries, recordWebhookAttempt } from './alerts.repository.ts';

export const MAX_ATTEMPTS = 8;
const BATCH = 20;
const LEASE_MS = 120_000;
const TIMEOUT_MS = 10_000;

/** `t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Seconds until attempt `attempts + 1`: 30 s doubling, at most 6 h. */
export const backoffSeconds = (attempts: number) => Math.min(6 * 3600, 30 * 2 ** Math.max(0, attempts - 1));

/**
 * Sends the deliveries due at `now` (one round of at most 20). @returns how many were delivered.
 * `fetchImpl` is the HTTP client, built once by the caller: `webhookFetch` (webhook-address.ts),
 * which refuses non-public addresses unless WEBHOOKS_ALLOW_PRIVATE; tests pass their own.
 */
export async function deliverDueWebhooks(db: Db, now: Date, fetchImpl: typeof fetch): Promise<number> {
  const at = now.toISOString();
  const claimed = await claimDueWebhookDeliveries(db, now, new Date(now.getTime() + LEASE_MS), BATCH);
  let delivered = 0;
  await Promise.all(
    claimed.map(async (d) => {
      const body = JSON.stringify(d.payload);
      let status: number | null = null;
      let error: string | null = null;
      try {
        const res = await fetchImpl(d.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Heizplan-Webhooks/1',
            'heizplan-event': `alert.${d.event}`,
            'heizplan-delivery': d.id,
            'heizplan-signature': signature(d.secret, Math.floor(now.getTime() / 1000), body),
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        status = res.status;
        await res.body?.cancel();
      } catch (err) {
        error = err instanceof Error ? err.message.slice(0, 200) : String(err);
      }
      const ok = status !== null && status >= 200 && status < 300;
      if (ok) delivered++;
      const attempts = d.attempts + 1;
      const final = ok ? 'delivered' : attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
      webhookDeliveries.inc({ result: final === 'pending' ? 'retry' : final });
      const next =
        final === 'pending' ? new Date(now.getTime() + backoffSeconds(attempts) * 1000).toISOString() : null;
      await recordWebhookAttempt(db, d.id, {
        status: final,
        attempts,
        statusCode: status,
        error: error ?? (ok ? null : `HTTP ${status}`),
        nextAttemptAt: next,
        deliveredAt: ok ? at : null,
      });
    }),
  );
  return delivered;
}
