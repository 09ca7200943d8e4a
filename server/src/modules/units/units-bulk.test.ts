/**
 * The rooms list's bulk edit (`POST …/units/bulk-update`, `…/bulk-delete`, `…/bulk-qr-code`): all
 * or nothing — a bad id or a limit out of range changes no unit —, the scheduler sees the change
 * (moved units take their new group's plan at once, new limits go to the devices), the QR
 * allowance holds, a deletion takes plans and log along, another company's member gets 404 and a
 * member who only reads 403; every unit gets an audit entry.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  auditLog,
  heatingLog,
  heatingPlans,
  qrCodeChanges,
  setpointOutbox,
  unitQrCodes,
  units,
} from '../../db/schema.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { addMember } from '../me/account.fixtures.ts';
import { allYearPlan, seedCompanies } from './heating-test-fixtures.ts';

const FOREIGN_ID = '00000000-0000-4000-8000-000000000000';

describe('units bulk edit API', () => {
  let t: TestApp;
  let companyId: string;
  let otherCompanyId: string;
  let base: string;
  let wakes = 0;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp();
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db, {
      minTemperature: 5,
      maxTemperature: 26,
    }));
    base = `/api/companies/${companyId}/units`;
    await addMember(t, companyId, 'erik-ems', 'ems');
    await addMember(t, companyId, 'hans-heating', 'heating');
    t.ports.wake = () => {
      wakes += 1;
    };
  });
  afterAll(() => t.close());
  beforeEach(() => {
    wakes = 0;
  });

  /** Creates `n` units named `prefix 1` … and returns their ids. */
  async function createUnits(prefix: string, n: number): Promise<string[]> {
    const res = await call('POST', `${base}/bulk`, { pattern: `${prefix} {n}`, count: n });
    expect(res.statusCode).toBe(201);
    wakes = 0;
    return res.json().results.map((u: { id: string }) => u.id);
  }

  const unitRows = (ids: string[]) =>
    t.database.db
      .select({
        id: units.id,
        groupId: units.groupId,
        wallControlMin: units.wallControlMin,
        wallControlMax: units.wallControlMax,
        setpoint: units.setpoint,
        setpointSource: units.setpointSource,
      })
      .from(units)
      .where(inArray(units.id, ids));

  it('sets the wall control limits of every unit and sends them to the devices, once per unit', async () => {
    const ids = await createUnits('Klasse', 3);
    const res = await call('POST', `${base}/bulk-update`, {
      unitIds: [...ids, ids[0]],
      changes: { wallControlMin: 19.5, wallControlMax: 22 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 3 });
    const rows = await unitRows(ids);
    expect(rows.map((r) => [r.wallControlMin, r.wallControlMax])).toEqual([
      [19.5, 22],
      [19.5, 22],
      [19.5, 22],
    ]);
    // The devices enforce the limits: each unit's setpoint is queued again with them.
    const outbox = await t.database.db
      .select({
        unitId: setpointOutbox.unitId,
        min: setpointOutbox.wallControlMin,
        max: setpointOutbox.wallControlMax,
      })
      .from(setpointOutbox)
      .where(and(inArray(setpointOutbox.unitId, ids), eq(setpointOutbox.wallControlMin, 19.5)));
    expect(outbox.map((o) => o.unitId).sort()).toEqual([...ids].sort());
    expect(wakes).toBe(1);

    // Cleared: the company's safe occupant default applies again (decision 0066).
    const cleared = await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { wallControlMin: null, wallControlMax: null },
    });
    expect(cleared.statusCode).toBe(200);
    expect((await unitRows(ids)).every((r) => r.wallControlMin === null && r.wallControlMax === null)).toBe(
      true,
    );
  });

  it('moves units into a group whose plan takes over at once, and out of it again', async () => {
    const ids = await createUnits('Labor', 2);
    const group = (await call('POST', `/api/companies/${companyId}/groups`, { name: 'Labore' })).json();
    const plan = await call(
      'POST',
      `/api/companies/${companyId}/groups/${group.id}/plans`,
      allYearPlan(20.5),
    );
    expect(plan.statusCode).toBe(201);
    wakes = 0;
    const moved = await call('POST', `${base}/bulk-update`, { unitIds: ids, changes: { groupId: group.id } });
    expect(moved.statusCode).toBe(200);
    // Re-evaluated in the same transaction: the scheduler's state already shows the group plan.
    expect(await unitRows(ids)).toEqual(
      ids.map((id) =>
        expect.objectContaining({ id, groupId: group.id, setpoint: 20.5, setpointSource: 'group_plan' }),
      ),
    );
    expect(wakes).toBe(1);
    const out = await call('POST', `${base}/bulk-update`, { unitIds: ids, changes: { groupId: null } });
    expect(out.statusCode).toBe(200);
    expect((await unitRows(ids)).map((r) => [r.groupId, r.setpointSource])).toEqual([
      [null, 'no_plan'],
      [null, 'no_plan'],
    ]);
  });

  it('changes nothing when one id is not the company’s, and says 404 without naming whose', async () => {
    const ids = await createUnits('Flur', 2);
    const foreign = (
      await t.call('POST', `/api/companies/${otherCompanyId}/units`, { name: 'Fremd' }, 'mallory')
    ).json().id as string;
    wakes = 0;
    for (const stranger of [foreign, FOREIGN_ID]) {
      const res = await call('POST', `${base}/bulk-update`, {
        unitIds: [...ids, stranger],
        changes: { wallControlMin: 18, wallControlMax: 21, groupId: null },
      });
      expect(res.statusCode).toBe(404);
      // The same answer for another company's unit and for no unit at all.
      expect(res.json()).toMatchObject({
        status: 404,
        code: 'unknown_unit',
        errors: [{ field: 'unitIds.2' }],
      });
    }
    expect((await unitRows(ids)).every((r) => r.wallControlMin === null)).toBe(true);
    const deleted = await call('POST', `${base}/bulk-delete`, { unitIds: [ids[0], foreign] });
    expect(deleted.statusCode).toBe(404);
    expect(await unitRows(ids)).toHaveLength(2);
    expect(await unitRows([foreign])).toHaveLength(1);
    expect(wakes).toBe(0);
  });

  it('refuses limits outside the company range or in the wrong order, naming the field and the limit', async () => {
    const ids = await createUnits('Aula', 2);
    const above = await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { wallControlMin: 18, wallControlMax: 27 },
    });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toMatchObject({
      code: 'out_of_range',
      params: { min: 5, max: 26 },
      errors: [{ field: 'changes.wallControlMax', code: 'out_of_range', params: { min: 5, max: 26 } }],
    });
    const below = await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { wallControlMin: 4, wallControlMax: 20, groupId: null },
    });
    expect(below.json()).toMatchObject({
      errors: [{ field: 'changes.wallControlMin', code: 'below_range' }],
    });
    const order = await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { wallControlMin: 23, wallControlMax: 20 },
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.changes.wallControlMin', code: 'wall_control_order' }),
      ]),
    );
    const alone = await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { wallControlMin: 18 },
    });
    expect(alone.json().errors).toEqual([
      expect.objectContaining({ field: 'body.changes.wallControlMax', code: 'bulk_wall_control_pair' }),
    ]);
    const nothing = await call('POST', `${base}/bulk-update`, { unitIds: ids, changes: {} });
    expect(nothing.json().errors).toEqual([
      expect.objectContaining({ field: 'body.changes', code: 'bulk_no_changes' }),
    ]);
    const unknownGroup = await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { groupId: FOREIGN_ID },
    });
    expect(unknownGroup.json()).toMatchObject({
      errors: [{ field: 'changes.groupId', code: 'unknown_group' }],
    });
    // Nothing of it reached a unit.
    expect((await unitRows(ids)).every((r) => r.wallControlMin === null && r.groupId === null)).toBe(true);
  });

  it('takes 1 … 1000 units, naming the limit when there are more', async () => {
    const none = await call('POST', `${base}/bulk-delete`, { unitIds: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([
      expect.objectContaining({ field: 'body.unitIds', code: 'bulk_units_none' }),
    ]);
    const many = Array.from(
      { length: 1001 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const tooMany = await call('POST', `${base}/bulk-update`, { unitIds: many, changes: { groupId: null } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors).toEqual([
      expect.objectContaining({ field: 'body.unitIds', code: 'bulk_units_too_many', params: { max: 1000 } }),
    ]);
  });

  it('deletes units with their plans, log and QR codes, and records each in the audit log', async () => {
    const ids = await createUnits('Keller', 3);
    const [gone1, gone2, kept] = ids as [string, string, string];
    for (const id of ids) {
      expect((await call('POST', `${base}/${id}/plans`, allYearPlan(19))).statusCode).toBe(201);
    }
    await grantLicences(t.database.db, companyId, 5);
    expect((await call('POST', `${base}/${gone1}/qr-code`)).statusCode).toBe(200);
    const logged = await t.database.db
      .select({ n: count() })
      .from(heatingLog)
      .where(inArray(heatingLog.unitId, [gone1, gone2]));
    expect(logged[0]?.n).toBeGreaterThan(0);

    const res = await call('POST', `${base}/bulk-delete`, { unitIds: [gone1, gone2] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 2 });
    expect((await unitRows(ids)).map((r) => r.id)).toEqual([kept]);
    const plansLeft = await t.database.db
      .select({ n: count() })
      .from(heatingPlans)
      .where(inArray(heatingPlans.unitId, [gone1, gone2, kept]));
    expect(plansLeft[0]?.n).toBe(1);
    const logLeft = await t.database.db
      .select({ n: count() })
      .from(heatingLog)
      .where(inArray(heatingLog.unitId, [gone1, gone2]));
    expect(logLeft[0]?.n).toBe(0);
    expect(await t.database.db.select().from(unitQrCodes).where(eq(unitQrCodes.unitId, gone1))).toEqual([]);

    const entries = await t.database.db
      .select({ resourceId: auditLog.resourceId, route: auditLog.route, actorName: auditLog.actorName })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.companyId, companyId),
          eq(auditLog.route, '/api/companies/{companyId}/units/bulk-delete'),
        ),
      );
    expect(entries.map((e) => e.resourceId).sort()).toEqual([gone1, gone2].sort());
    expect(entries[0]?.actorName).toBe('Alice');
  });

  it('records a bulk change once per unit in the audit log, with what it set', async () => {
    const ids = await createUnits('Turnhalle', 2);
    await call('POST', `${base}/bulk-update`, {
      unitIds: ids,
      changes: { wallControlMin: 17, wallControlMax: 23 },
    });
    const entries = await t.database.db
      .select({ resourceId: auditLog.resourceId, fields: auditLog.fields, resource: auditLog.resource })
      .from(auditLog)
      .where(inArray(auditLog.resourceId, ids));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      resource: 'units',
      fields: { wallControlMin: 17, wallControlMax: 23, units: 2 },
    });
  });

  it('enables QR codes only within the allowance, saying how many are free, and disables them', async () => {
    const { companyId: cid } = await seedCompanies(t.database.db);
    const qrBase = `/api/companies/${cid}/units`;
    const made = await call('POST', `${qrBase}/bulk`, { pattern: 'Zimmer {n}', count: 4 });
    const ids = made.json().results.map((u: { id: string }) => u.id) as string[];
    await grantLicences(t.database.db, cid, 3);
    expect((await call('POST', `${qrBase}/${ids[0]}/qr-code`)).statusCode).toBe(200);
    const codes = () =>
      t.database.db
        .select({ unitId: unitQrCodes.unitId })
        .from(unitQrCodes)
        .where(eq(unitQrCodes.companyId, cid));

    // Three more would need 3 of the 2 free codes: refused, nothing enabled.
    const short = await call('POST', `${qrBase}/bulk-qr-code`, { unitIds: ids, enabled: true });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'qr_allowance_short', params: { free: 2, needed: 3 } });
    expect(await codes()).toHaveLength(1);

    const two = await call('POST', `${qrBase}/bulk-qr-code`, { unitIds: ids.slice(0, 3), enabled: true });
    expect(two.statusCode).toBe(200);
    expect(two.json()).toMatchObject({ count: 3, changed: 2, allowance: 3, used: 3, remaining: 0 });
    const off = await call('POST', `${qrBase}/bulk-qr-code`, { unitIds: ids, enabled: false });
    expect(off.json()).toMatchObject({ count: 4, changed: 3, used: 0, remaining: 3 });
    expect(await codes()).toEqual([]);
    const trail = await t.database.db
      .select({ action: qrCodeChanges.action })
      .from(qrCodeChanges)
      .where(eq(qrCodeChanges.companyId, cid));
    expect(trail.filter((c) => c.action === 'disabled')).toHaveLength(3);
    // Another company's unit among them: 404, and the allowance check never ran.
    const foreign = await call('POST', `${qrBase}/bulk-qr-code`, {
      unitIds: [ids[0], FOREIGN_ID],
      enabled: true,
    });
    expect(foreign.statusCode).toBe(404);
    expect(await codes()).toEqual([]);
  });

  describe('access', () => {
    let ids: string[];
    beforeAll(async () => {
      ids = await createUnits('Zugang', 2);
    });
    const operations = () =>
      [
        ['bulk-update', { unitIds: ids, changes: { wallControlMin: 18, wallControlMax: 22 } }],
        ['bulk-qr-code', { unitIds: ids, enabled: false }],
        ['bulk-delete', { unitIds: ids }],
      ] as const;

    it('answers another company’s member 404 for each bulk operation, changing nothing', async () => {
      for (const [operation, body] of operations()) {
        const res = await call('POST', `${base}/${operation}`, body, 'mallory');
        expect(res.statusCode, operation).toBe(404);
      }
      expect(await unitRows(ids)).toHaveLength(2);
    });

    it('answers a member who only reads (ems) 403, and lets heating staff through', async () => {
      for (const [operation, body] of operations()) {
        const res = await call('POST', `${base}/${operation}`, body, 'erik-ems');
        expect(res.statusCode, operation).toBe(403);
      }
      expect((await unitRows(ids)).every((r) => r.wallControlMin === null)).toBe(true);
      for (const [operation, body] of operations()) {
        const res = await call('POST', `${base}/${operation}`, body, 'hans-heating');
        expect(res.statusCode, operation).toBe(200);
      }
      expect(await unitRows(ids)).toEqual([]);
    });
  });
});
