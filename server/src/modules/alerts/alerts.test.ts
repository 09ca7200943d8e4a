/**
 * The alert centre's API, mails and webhooks on PGlite and PostgreSQL: filters,
 * acknowledging and muting, the summary behind the badge, settings and preferences, mail
 * timing with a controlled clock, signed webhook deliveries with retries against a local
 * receiver, and evaluation and delivery acting once with two instances at work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alertEvents, alerts, devices, users, webhookDeliveries } from '../../db/schema.ts';
import { secondConnection } from '../../jobs/second-connection.test-helper.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { addMember, expectProblem, recordMails, type SentMail } from '../me/account.fixtures.ts';
import { evaluateAll } from './alert-evaluation.repository.ts';
import { alertMailLine, type MailRow, sendAlertMails } from './alert-mail.ts';
import { webhookFetch } from './webhook-address.ts';
import { backoffSeconds, deliverDueWebhooks, MAX_ATTEMPTS, signature } from './webhook-delivery.ts';

const MIN = 60_000;
const DEV = 'f100000000000001';
let t: TestApp;
let f: RegistryFixture;
let base: string;
const T0 = new Date('2026-11-23T06:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * MIN);
// The app acts a minute after the alerts open: the 7-day delivery log and the mute's end are read
// from this clock, not from the day the suite runs.
const clock = testClock(at(1));

beforeAll(async () => {
  t = await buildTestApp({ WEBHOOKS_ALLOW_HTTP: '1', WEBHOOKS_ALLOW_PRIVATE: '1' }, { clock: clock.now });
  f = await seedRegistry(t.database.db);
  base = `/api/companies/${f.companyId}`;
  await addMember(t, f.companyId, 'reader', 'ems');
  await addMember(t, f.companyId, 'heater', 'heating');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(alerts);
  await t.database.db.delete(devices);
  await t.database.db.insert(devices).values({
    id: DEV,
    devEui: DEV,
    companyId: f.companyId,
    model: 'mclimate-vicki',
    unitId: f.unitId,
    createdAt: at(-600),
    lastSeen: at(-40),
  });
});

/** Opens the offline alert of the test valve at `minutes`. */
async function offline(minutes = 0) {
  await evaluateAll(t.database.db, at(minutes));
  const [alert] = await t.database.db.select().from(alerts).where(eq(alerts.subjectId, DEV));
  if (!alert) throw new Error('no alert opened');
  return alert;
}

describe('the alert list and its actions', () => {
  it('lists alerts with unit names, filters by kind, state and unit, and shows none of another company', async () => {
    const alert = await offline();
    const list = (await t.call('GET', `${base}/alerts?state=open`)).json();
    expect(list).toMatchObject({
      count: 1,
      results: [{ id: alert.id, kind: 'device_offline', unitName: 'Raum 1', subjectName: DEV }],
    });
    expect((await t.call('GET', `${base}/alerts?kind=low_battery`)).json().count).toBe(0);
    expect((await t.call('GET', `${base}/alerts?unitId=${f.otherUnitId}`)).json().count).toBe(0);
    expect((await t.call('GET', `${base}/alerts?state=resolved`)).json().count).toBe(0);
    expectProblem(await t.call('GET', `${base}/alerts?colour=red`), 400);
    expectProblem(await t.call('GET', `${base}/alerts`, undefined, 'mallory'), 404);
  });

  it('acknowledges with by whom, when and a note; muting leaves the badge; ems may only read', async () => {
    const alert = await offline();
    expect((await t.call('GET', `${base}/alerts/summary`, undefined, 'reader')).json()).toEqual({
      attention: 1,
      open: 1,
      units: { [f.unitId]: 1 },
      devices: { [DEV]: 1 },
    });
    expectProblem(await t.call('POST', `${base}/alerts/${alert.id}/acknowledge`, {}, 'reader'), 403);
    const acked = await t.call(
      'POST',
      `${base}/alerts/${alert.id}/acknowledge`,
      { note: ' Batterie bestellt ' },
      'heater',
    );
    expect(acked.json()).toMatchObject({
      acknowledgedBy: { id: 'heater' },
      note: 'Batterie bestellt',
      state: 'open',
    });
    expect((await t.call('GET', `${base}/alerts/summary`)).json()).toMatchObject({ attention: 0, open: 1 });
    const muted = await t.call('POST', `${base}/alerts/${alert.id}/mute`, { hours: 8 }, 'heater');
    expect(new Date(muted.json().mutedUntil)).toEqual(at(1 + 8 * 60));
    const events = await t.database.db.select().from(alertEvents).where(eq(alertEvents.alertId, alert.id));
    expect(events.map((e) => e.type).sort()).toEqual(['acknowledged', 'muted', 'opened']);
  });
});

describe('settings and preferences', () => {
  it('lets admins switch a kind off and everybody choose their own mails, with role defaults', async () => {
    expectProblem(await t.call('PATCH', `${base}/alert-settings`, { clearMinutes: 1 }, 'heater'), 403);
    const changed = await t.call('PATCH', `${base}/alert-settings`, { enabled: ['low_battery'] });
    expect(changed.json()).toMatchObject({ enabled: ['low_battery'], offlineIntervals: 3 });
    await evaluateAll(t.database.db, at(0));
    expect(await t.database.db.select().from(alerts)).toEqual([]);
    await t.call('PATCH', `${base}/alert-settings`, { enabled: ['device_offline', 'low_battery'] });
    expect(
      (await t.call('GET', `${base}/alert-preferences`, undefined, 'reader')).json().device_offline,
    ).toBe('digest');
    expect(
      (await t.call('GET', `${base}/alert-preferences`, undefined, 'heater')).json().device_offline,
    ).toBe('immediate');
    const mine = await t.call('PATCH', `${base}/alert-preferences`, { device_offline: 'off' }, 'reader');
    expect(mine.json()).toMatchObject({ device_offline: 'off', low_battery: 'digest' });
  });
});

describe('alert mails', () => {
  let mails: SentMail[];
  const to = (email: string) => mails.filter((m) => m.to === email);
  beforeEach(() => {
    mails = recordMails(t);
  });
  const send = (minutes: number) =>
    sendAlertMails(
      t.database.db,
      t.ports.mailer ?? { send: async () => {} },
      'https://heizplan.example',
      at(minutes),
    );

  it('mails at once, repeats unacknowledged alerts after the repeat hours, and digests once a day, each in the member’s language', async () => {
    await t.call('PATCH', `${base}/alert-preferences`, { device_offline: 'digest' }, 'reader');
    await t.database.db.update(users).set({ lang: 'en' }).where(eq(users.email, 'reader@example.test'));
    await offline(0);
    await send(1);
    expect(to('heater@example.test')).toHaveLength(1);
    expect(to('heater@example.test')[0]?.text).toContain(`Gerät meldet sich nicht: ${DEV}, Raum 1`);
    expect(to('reader@example.test')).toHaveLength(1);
    expect(to('heater@example.test')[0]?.subject).toMatch(/^Heizplan: 1 Meldung – /);
    expect(to('reader@example.test')[0]?.subject).toMatch(/^Heizplan: daily alert digest – /);
    expect(to('reader@example.test')[0]?.text).toContain(`Device offline: ${DEV}, Raum 1`);
    await send(2);
    await send(60 * 23);
    expect(to('heater@example.test')).toHaveLength(1);
    await send(60 * 24 + 2); // 24 h after the first mail, still open and unacknowledged
    expect(to('heater@example.test')).toHaveLength(2);
    expect(to('heater@example.test')[1]?.text).toContain(
      `Gerät meldet sich nicht: ${DEV}, Raum 1 – weiterhin offen`,
    );
    expect(to('reader@example.test')).toHaveLength(1); // nothing new for the digest
  });

  it('names a device fault in words in the recipient’s language, never by its raw code', () => {
    const row = {
      kind: 'device_fault',
      code: 'calibrationFailed',
      subject_name: DEV,
      unit_name: 'Raum 1',
      event: 'opened',
    } as unknown as MailRow;
    expect(alertMailLine(row, 'de')).toBe(
      `- Gerätefehler: ${DEV}, Raum 1\n  Die Kalibrierung ist fehlgeschlagen. Gerät neu montieren und Kalibrierung wiederholen.`,
    );
    expect(alertMailLine(row, 'en')).toBe(
      `- Device fault: ${DEV}, Raum 1\n  Calibration failed. Mount the device again and repeat the calibration.`,
    );
    expect(alertMailLine(row, 'de')).not.toContain('calibrationFailed');
    expect(alertMailLine({ ...row, code: 'valveStuck42' }, 'en')).toContain('The device reports the fault');
  });

  it('leaves muted alerts out', async () => {
    const alert = await offline(0);
    await t.call('POST', `${base}/alerts/${alert.id}/mute`, { hours: 24 });
    await send(1);
    expect(mails.filter((m) => m.text.includes(DEV))).toEqual([]);
  });
});

describe('webhooks', () => {
  let receiver: Server;
  let url: string;
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  let answer = 200;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('signs each alert change with the endpoint’s secret, retries with backoff and logs deliveries', async () => {
    received.length = 0;
    const created = await t.call('POST', `${base}/webhooks`, { url });
    expect(created.statusCode).toBe(201);
    const { id: webhookId, secret } = created.json();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.call('GET', `${base}/webhooks`)).json().results[0]).not.toHaveProperty('secret');
    await offline(0);
    answer = 500;
    await deliverDueWebhooks(t.database.db, at(0), fetch);
    const [first] = received;
    const header = String(first?.headers['heizplan-signature']);
    const timestamp = Number(header.match(/t=(\d+)/)?.[1]);
    expect(header).toBe(signature(secret, timestamp, first?.body ?? ''));
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({
      type: 'alert.opened',
      alert: { kind: 'device_offline', subjectId: DEV },
    });
    expect(first?.headers['heizplan-event']).toBe('alert.opened');
    let [delivery] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(delivery?.nextAttemptAt?.getTime()).toBe(at(0).getTime() + backoffSeconds(1) * 1000);
    await deliverDueWebhooks(t.database.db, at(0.25), fetch); // not due yet
    expect(received).toHaveLength(1);
    answer = 204;
    await deliverDueWebhooks(t.database.db, at(1), fetch);
    [delivery] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 204 });
    const log = (await t.call('GET', `${base}/webhooks/${webhookId}/deliveries`)).json().results;
    expect(log).toMatchObject([{ event: 'opened', status: 'delivered', attempts: 2 }]);
    await t.call('DELETE', `${base}/webhooks/${webhookId}`);
  });

  it('gives a delivery up after the last attempt', async () => {
    const { id: webhookId } = (await t.call('POST', `${base}/webhooks`, { url })).json();
    await offline(0);
    answer = 503;
    let now = at(0);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await deliverDueWebhooks(t.database.db, now, fetch);
      now = new Date(now.getTime() + backoffSeconds(attempt) * 1000);
    }
    const [delivery] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    expect(delivery).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    await t.call('DELETE', `${base}/webhooks/${webhookId}`);
  });

  it('refuses endpoints on loopback, private and link-local addresses unless allowed, also at delivery', async () => {
    const strict = await buildTestApp();
    try {
      const g = await seedRegistry(strict.database.db);
      for (const [target, address] of [
        ['https://127.0.0.1:9/hook', '127.0.0.1'],
        ['https://localhost/hook', '127.0.0.1'],
        ['https://[::1]/hook', '::1'],
        ['https://10.1.2.3/hook', '10.1.2.3'],
        ['https://169.254.169.254/latest', '169.254.169.254'],
        ['https://[fd00::1]/hook', 'fd00::1'],
        ['https://[::ffff:192.168.1.1]/hook', '::ffff:c0a8:101'],
      ] as const) {
        const res = await strict.call('POST', `/api/companies/${g.companyId}/webhooks`, { url: target });
        expectProblem(res, 400);
        expect(res.json()).toMatchObject({
          code: 'webhook_address_private',
          errors: [{ field: 'body.url' }],
        });
        expect(res.json().params.address).toBe(address);
      }
      const ok = await strict.call('POST', `/api/companies/${g.companyId}/webhooks`, {
        url: 'https://93.184.215.14/hook',
      });
      expect(ok.statusCode).toBe(201);
    } finally {
      await strict.close();
    }
    // Registered while allowed, delivered by the default client: refused before connecting, by
    // IP literal and by a name that resolves to loopback.
    received.length = 0;
    const port = (receiver.address() as AddressInfo).port;
    const guarded = webhookFetch(false);
    await expect(guarded(`http://127.0.0.1:${port}/hook`, { method: 'POST' })).rejects.toThrow(
      'not a public',
    );
    await expect(guarded(`http://localhost:${port}/hook`, { method: 'POST' })).rejects.toThrow();
    expect(received).toEqual([]);
  });

  it('answers 404 for the deliveries of a webhook that does not exist', async () => {
    const res = await t.call('GET', `${base}/webhooks/00000000-0000-4000-8000-000000000999/deliveries`);
    expectProblem(res, 404);
  });

  it('refuses plain http where it is not allowed', async () => {
    const strict = await buildTestApp();
    try {
      const g = await seedRegistry(strict.database.db);
      const res = await strict.call('POST', `/api/companies/${g.companyId}/webhooks`, {
        url: 'http://hooks.example.test/x',
      });
      expectProblem(res, 400);
      expect(res.json().code).toBe('webhook_https_required');
    } finally {
      await strict.close();
    }
  });
});

describe('two instances at work', () => {
  it('open each alert once and deliver each webhook once when both run at the same moment', async () => {
    const other = await secondConnection(t.database);
    const { id: webhookId } = (
      await t.call('POST', `${base}/webhooks`, { url: 'http://127.0.0.1:9/none' })
    ).json();
    await Promise.all([evaluateAll(t.database.db, at(0)), evaluateAll(other.db, at(0))]);
    expect(await t.database.db.select().from(alerts)).toHaveLength(1);
    const calls: string[] = [];
    const fakeFetch = (async (input: string | URL | Request) => {
      calls.push(String(input));
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    await Promise.all([
      deliverDueWebhooks(t.database.db, at(0), fakeFetch),
      deliverDueWebhooks(other.db, at(0), fakeFetch),
    ]);
    expect(calls).toHaveLength(1);
    await t.call('DELETE', `${base}/webhooks/${webhookId}`);
    if (other !== t.database) await other.close();
  });
});
