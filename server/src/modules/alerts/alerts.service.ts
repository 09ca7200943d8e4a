/**
 * The alert centre's rules for members (roles of decision 0022): every member reads
 * alerts, the summary behind the navigation's badge, the company's alert settings and sets their
 * own mail preferences; acknowledging and muting is operating the heating (admin, heating); the
 * settings and the webhooks are the company's configuration (admins). A webhook's secret is shown
 * once, when it is created.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '@heizplan/contracts/account';
import {
  ALERT_KINDS,
  type Alert,
  type AlertKind,
  type AlertListQuery,
  type AlertPreferences,
  type AlertSettings,
  type AlertSummary,
  type MailMode,
  type Webhook,
} from '@heizplan/contracts/alerts';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { queueWebhookDeliveries } from './alert-evaluation.repository.ts';
import * as repo from './alerts.repository.ts';
import { privateTargetOf } from './webhook-address.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WEEK_MS = 7 * 86_400_000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The mail mode a member gets when they chose none: admins and heating at once, ems a digest. */
export const defaultMailMode = (role: Role): MailMode => (role === 'ems' ? 'digest' : 'immediate');

export function toAlertResponse(r: repo.AlertRecord): Alert {
  const a = r.alert;
  return {
    id: a.id,
    kind: a.kind,
    subject: a.subject,
    subjectId: a.subjectId,
    subjectName:
      a.subject === 'unit'
        ? (r.unitName ?? a.subjectId)
        : a.subject === 'gateway'
          ? (r.gatewayName ?? a.subjectId)
          : a.subject === 'booking_feed'
            ? (r.feedName ?? a.subjectId)
            : a.subject === 'building'
              ? (r.buildingName ?? a.subjectId)
              : a.subject === 'heating_circuit'
                ? (r.circuitName ?? a.subjectId)
                : a.subjectId,
    code: a.code === '' ? null : a.code,
    unitId: a.unitId,
    unitName: r.unitName,
    buildingId: r.buildingId,
    buildingName: r.buildingName,
    floor: r.floor,
    state: a.state,
    openedAt: a.openedAt.toISOString(),
    lastSeenAt: a.lastSeenAt.toISOString(),
    occurrences: a.occurrences,
    resolvedAt: iso(a.resolvedAt),
    acknowledgedAt: iso(a.acknowledgedAt),
    acknowledgedBy: a.acknowledgedBy ? { id: a.acknowledgedBy, name: r.acknowledgedByName ?? '' } : null,
    note: a.note,
    mutedUntil: iso(a.mutedUntil),
    details: a.details as Alert['details'],
  };
}

export class AlertsService {
  constructor(
    private readonly db: Db,
    /** Accept http:// endpoints (WEBHOOKS_ALLOW_HTTP, development and tests). */
    private readonly webhooksAllowHttp = false,
    private readonly webhooksAllowPrivate = false,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(userId: string, companyId: string, query: AlertListQuery) {
    await requireMember(this.db, userId, companyId, 'read');
    const { rows, count } = await repo.listAlerts(this.db, companyId, query);
    return { results: rows.map(toAlertResponse), count, page: query.page, size: query.size };
  }

  async summary(userId: string, companyId: string): Promise<AlertSummary> {
    await requireMember(this.db, userId, companyId, 'read');
    return repo.summary(this.db, companyId, this.now());
  }

  /** Acknowledges an alert with an optional note (by whom, when); webhooks hear of it. */
  async acknowledge(userId: string, companyId: string, alertId: string, note?: string): Promise<Alert> {
    await requireMember(this.db, userId, companyId, 'operate');
    const now = this.now();
    return this.change(companyId, alertId, now, 'acknowledged', {
      acknowledgedAt: now,
      acknowledgedBy: userId,
      note: note && note.length > 0 ? note : null,
    });
  }

  /** Mutes an alert for `hours` (no badge, no mail); 0 unmutes. */
  async mute(userId: string, companyId: string, alertId: string, hours: number): Promise<Alert> {
    await requireMember(this.db, userId, companyId, 'operate');
    const now = this.now();
    return this.change(companyId, alertId, now, 'muted', {
      mutedUntil: hours > 0 ? new Date(now.getTime() + hours * 3_600_000) : null,
    });
  }

  async settings(userId: string, companyId: string): Promise<AlertSettings> {
    await requireMember(this.db, userId, companyId, 'read');
    return repo.readSettings(this.db, companyId);
  }

  /** Admins: changes the given settings only. */
  async updateSettings(
    userId: string,
    companyId: string,
    patch: Partial<AlertSettings>,
  ): Promise<AlertSettings> {
    await requireMember(this.db, userId, companyId, 'manage');
    const current = await repo.readSettings(this.db, companyId);
    // An empty patch writes nothing (decision 0030).
    if (Object.keys(patch).length === 0) return current;
    const merged = { ...current, ...patch };
    await repo.writeSettings(this.db, companyId, merged);
    return merged;
  }

  /** The caller's own mail mode per kind, defaults of their role filled in. */
  async preferences(userId: string, companyId: string): Promise<AlertPreferences> {
    const { role } = await requireMember(this.db, userId, companyId, 'read');
    const chosen = new Map(
      (await repo.readPreferences(this.db, companyId, userId)).map((p) => [p.kind, p.mode]),
    );
    return Object.fromEntries(
      ALERT_KINDS.map((kind) => [kind, chosen.get(kind) ?? defaultMailMode(role)]),
    ) as AlertPreferences;
  }

  async updatePreferences(userId: string, companyId: string, modes: Partial<AlertPreferences>) {
    await requireMember(this.db, userId, companyId, 'read');
    const entries = Object.entries(modes) as [AlertKind, MailMode][];
    await repo.writePreferences(
      this.db,
      companyId,
      userId,
      entries.map(([kind, mode]) => ({ kind, mode })),
    );
    return this.preferences(userId, companyId);
  }

  async webhooks(userId: string, companyId: string): Promise<Webhook[]> {
    await requireMember(this.db, userId, companyId, 'manage');
    const rows = await repo.listWebhooks(this.db, companyId, new Date(this.now().getTime() - WEEK_MS));
    return rows.map((w) => ({
      id: w.id,
      url: w.url,
      enabled: w.enabled,
      createdAt: new Date(w.created_at).toISOString(),
      delivered: Number(w.delivered),
      failing: Number(w.failing),
    }));
  }

  /**
   * Admins: registers an endpoint with a new 256-bit secret, returned this once.
   * @throws 400 for an http:// URL unless WEBHOOKS_ALLOW_HTTP, and for one on a non-public
   * address (or a name resolving to one) unless WEBHOOKS_ALLOW_PRIVATE.
   */
  async createWebhook(userId: string, companyId: string, url: string) {
    await requireMember(this.db, userId, companyId, 'manage');
    if (!url.startsWith('https://') && !this.webhooksAllowHttp) {
      const message = 'A webhook needs an https:// URL.';
      throw badRequest(message, [{ field: 'body.url', message, code: 'webhook_https_required' }], {
        code: 'webhook_https_required',
      });
    }
    const address = this.webhooksAllowPrivate ? null : await privateTargetOf(url);
    if (address) {
      const message = `The webhook address ${address} is not public; Heizplan sends webhooks only to public addresses.`;
      const reason = { code: 'webhook_address_private' as const, params: { address } };
      throw badRequest(message, [{ field: 'body.url', message, ...reason }], reason);
    }
    const row = await repo.insertWebhook(this.db, companyId, url, randomBytes(32).toString('hex'));
    return {
      id: row.id,
      url: row.url,
      enabled: row.enabled,
      createdAt: row.createdAt.toISOString(),
      delivered: 0,
      failing: 0,
      secret: row.secret,
    };
  }

  /** Admins: one endpoint. @throws 404 for another company's or an unknown id. */
  async webhook(userId: string, companyId: string, webhookId: string): Promise<Webhook> {
    const list = await this.webhooks(userId, companyId);
    const found = UUID.test(webhookId) ? list.find((w) => w.id === webhookId) : undefined;
    if (!found) throw notFound('Webhook not found.');
    return found;
  }

  async updateWebhook(
    userId: string,
    companyId: string,
    webhookId: string,
    enabled?: boolean,
  ): Promise<Webhook> {
    await requireMember(this.db, userId, companyId, 'manage');
    if (
      !UUID.test(webhookId) ||
      (enabled !== undefined && !(await repo.updateWebhook(this.db, companyId, webhookId, enabled)))
    ) {
      throw notFound('Webhook not found.');
    }
    const found = (await this.webhooks(userId, companyId)).find((w) => w.id === webhookId);
    if (!found) throw notFound('Webhook not found.');
    return found;
  }

  async deleteWebhook(userId: string, companyId: string, webhookId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'manage');
    if (!UUID.test(webhookId) || !(await repo.deleteWebhook(this.db, companyId, webhookId))) {
      throw notFound('Webhook not found.');
    }
  }

  /** Admins: an endpoint's deliveries of the last 7 days, newest first. @throws 404 for an unknown id. */
  async deliveries(userId: string, companyId: string, webhookId: string) {
    await requireMember(this.db, userId, companyId, 'manage');
    if (!UUID.test(webhookId) || !(await repo.webhookExists(this.db, companyId, webhookId))) {
      throw notFound('Webhook not found.');
    }
    const rows = await repo.listDeliveries(
      this.db,
      companyId,
      webhookId,
      new Date(this.now().getTime() - WEEK_MS),
    );
    return rows.map(({ delivery: d }) => ({
      id: d.id,
      event: d.event,
      alertId: d.alertId,
      status: d.status,
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      createdAt: d.createdAt.toISOString(),
      nextAttemptAt: iso(d.nextAttemptAt),
      deliveredAt: iso(d.deliveredAt),
    }));
  }

  private async change(
    companyId: string,
    alertId: string,
    now: Date,
    event: 'acknowledged' | 'muted',
    changes: Parameters<typeof repo.changeAlert>[3],
  ): Promise<Alert> {
    if (!UUID.test(alertId)) throw notFound('Alert not found.');
    const changed = await this.db.transaction(async (tx) => {
      if (!(await repo.changeAlert(tx, companyId, alertId, changes, event, now))) return false;
      await queueWebhookDeliveries(tx, now);
      return true;
    });
    const row = changed ? await repo.findAlert(this.db, companyId, alertId) : undefined;
    if (!row) throw notFound('Alert not found.');
    return toAlertResponse(row);
  }
}
