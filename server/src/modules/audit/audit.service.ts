/**
 * The audit log for admins (decision 0059): a page of entries with filters, and all entries that
 * match as CSV, streamed in batches so a year of entries never sits in memory at once.
 */
import type { Readable } from 'node:stream';
import type { AuditEntry } from '@heizplan/contracts/audit';
import { API_TOKEN_PRINCIPAL } from '../../auth/api-token-auth.ts';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { tableExport } from '../../http/table-export.ts';
import * as repo from './audit.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { insertAuditEntry } from './audit.repository.ts';

/**
 * Records a bulk change of units (decision 0059) in the caller's transaction, so the entries exist
 * exactly when the change does: one entry per unit, with the unit as its object and `fields` as
 * what was set, so a unit's history shows the change as if it had been made to it alone. The
 * route is the bulk operation's (`POST /api/companies/{companyId}/units/bulk-update`); its route
 * turns the audit hook off, which would keep only the field names of a body over 4 kB (about a
 * hundred ids) and so lose which units were changed.
 */
export async function recordUnitsChange(
  tx: Db,
  change: {
    companyId: string;
    actorId: string;
    route: string;
    unitIds: readonly string[];
    fields: Record<string, unknown>;
  },
): Promise<void> {
  const { companyId, actorId, route, unitIds, fields } = change;
  await repo.insertAuditEntries(
    tx,
    unitIds.map((unitId) => ({
      companyId,
      actorId,
      fallbackName: actorId,
      actorKind: actorId.startsWith(API_TOKEN_PRINCIPAL) ? 'token' : 'member',
      method: 'POST',
      route,
      resource: 'units',
      resourceId: unitId,
      fields: { ...fields, units: unitIds.length },
      status: 200,
    })),
  );
}

const EXPORT_BATCH = 1000;

export class AuditService {
  constructor(private readonly deps: { db: Db }) {}

  async list(userId: string, companyId: string, q: repo.AuditFilter & { page: number; size: number }) {
    await requireMember(this.deps.db, userId, companyId, 'manage');
    const { rows, count } = await repo.listAudit(this.deps.db, companyId, q, q.page, q.size);
    return { results: rows.map(toResponse), count, page: q.page, size: q.size };
  }

  /**
   * The matching entries as CSV (comma, ISO times, one header row), newest first: time, actor,
   * actor kind, method, route, resource, object, fields (JSON), the values they replaced (JSON,
   * empty when not known), status.
   */
  async export(userId: string, companyId: string, filter: repo.AuditFilter): Promise<Readable> {
    await requireMember(this.deps.db, userId, companyId, 'manage');
    const db = this.deps.db;
    async function* rows() {
      for (let beforeId: number | null = null; ; ) {
        const batch = await repo.auditBatch(db, companyId, filter, beforeId, EXPORT_BATCH);
        for (const r of batch)
          yield [
            r.at,
            r.actorName,
            r.actorId,
            r.actorKind,
            r.method,
            r.route,
            r.resource,
            r.resourceId ?? '',
            JSON.stringify(r.fields),
            r.previous ? JSON.stringify(r.previous) : '',
            r.status,
          ];
        if (batch.length < EXPORT_BATCH) return;
        beforeId = (batch.at(-1) as repo.AuditRow).id;
      }
    }
    const header = [
      'at',
      'actor',
      'actor_id',
      'actor_kind',
      'method',
      'route',
      'resource',
      'object',
      'fields',
      'previous',
      'status',
    ];
    return tableExport(rows(), header, { format: 'csv', timeZone: 'UTC' }).stream;
  }
}

function toResponse(r: repo.AuditRow): AuditEntry {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: { id: r.actorId, name: r.actorName, kind: r.actorKind },
    method: r.method as AuditEntry['method'],
    route: r.route,
    resource: r.resource,
    resourceId: r.resourceId,
    fields: r.fields,
    previous: r.previous ?? null,
    status: r.status,
  };
}
