/**
 * QR codes of units (spec §2 "Units screen", §4 "QR access is valid until disabled or
 * regenerated"): enable, regenerate, disable, list, and the remaining allowance. Tokens are 128
 * random bits (base64url). Disabling deletes the code and regenerating replaces its token in the
 * same statement, so an old link answers 404 from that moment. Every change is recorded with its
 * actor. Every method checks membership first (404 for other companies).
 */
import { randomBytes } from 'node:crypto';
import {
  QR_ALLOWANCE_MESSAGE,
  type QrAllowance,
  type QrCode,
  type QrCodeList,
  type UnitQrBulk,
  type UnitQrBulkResult,
  type UnitQrState,
} from '@heizplan/contracts/qr-codes';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { recordUnitsChange } from '../audit/audit.service.ts';
import { BULK_UNIT_ROUTES, findUnit, lockUnitsForChange, requireAllUnits } from '../units/units.service.ts';
import * as repo from './qr-codes.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { findByToken } from './qr-codes.repository.ts';

export interface QrCodesDeps {
  db: Db;
  now: () => Date;
  /** QR codes the company may have enabled at once: one per usable licence, null = unlimited. */
  allowance: (db: Db, companyId: string) => Promise<number | null>;
  /** Base URL of the app, without trailing slash (config.publicUrl). */
  publicUrl: string;
}

/** 16 random bytes as base64url (22 characters): 128 bits that cannot be guessed. */
export function newQrToken(): string {
  return randomBytes(16).toString('base64url');
}

export class QrCodesService {
  constructor(private readonly deps: QrCodesDeps) {}

  private get db() {
    return this.deps.db;
  }

  private toCode(row: repo.QrCodeRow): QrCode {
    return {
      unitId: row.unitId,
      unitName: row.unitName,
      token: row.token,
      url: `${this.deps.publicUrl}/heating-view/${row.token}`,
      enabledAt: row.enabledAt.toISOString(),
    };
  }

  /** Counts on `db`, which may be the caller's transaction. */
  private async allowance(db: Db, companyId: string): Promise<QrAllowance> {
    const total = await this.deps.allowance(db, companyId);
    const used = await repo.countQrCodes(db, companyId);
    if (total === null) return { unlimited: true, allowance: null, used, remaining: null };
    return { unlimited: false, allowance: total, used, remaining: Math.max(0, total - used) };
  }

  private async requireUnit(companyId: string, unitId: string) {
    if (!(await findUnit(this.db, companyId, unitId)))
      throw notFound('Unit not found.', { code: 'unknown_unit' });
  }

  private async state(companyId: string, unitId: string): Promise<UnitQrState> {
    const row = await repo.findQrCode(this.db, companyId, unitId);
    return { ...(await this.allowance(this.db, companyId)), code: row ? this.toCode(row) : null };
  }

  /** The unit's code (null while disabled) and the company's remaining allowance. */
  async get(userId: string, companyId: string, unitId: string): Promise<UnitQrState> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireUnit(companyId, unitId);
    return this.state(companyId, unitId);
  }

  /** All enabled codes of the company (print sheet) with the allowance. */
  async list(userId: string, companyId: string): Promise<QrCodeList> {
    await requireMember(this.db, userId, companyId, 'operate');
    const rows = await repo.listQrCodes(this.db, companyId);
    return { ...(await this.allowance(this.db, companyId)), results: rows.map((r) => this.toCode(r)) };
  }

  /**
   * Enables the unit's code; an enabled code stays as it is (idempotent).
   * @throws 409 QR_ALLOWANCE_MESSAGE when no QR code remains.
   */
  async enable(userId: string, companyId: string, unitId: string): Promise<UnitQrState> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireUnit(companyId, unitId);
    if (await repo.findQrCode(this.db, companyId, unitId)) return this.state(companyId, unitId);
    await this.db.transaction(async (tx) => {
      // Serialises concurrent enables of one company so two requests cannot both take the last code.
      await repo.lockCompany(tx, companyId);
      if ((await this.allowance(tx, companyId)).remaining === 0) {
        throw conflict(QR_ALLOWANCE_MESSAGE, { code: 'qr_allowance_exhausted' });
      }
      await this.write(tx, companyId, unitId, userId, 'enabled');
    });
    return this.state(companyId, unitId);
  }

  /** Gives the unit's code a new token; the old link answers 404 at once. @throws 409 while disabled. */
  async regenerate(userId: string, companyId: string, unitId: string): Promise<UnitQrState> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireUnit(companyId, unitId);
    if (!(await repo.findQrCode(this.db, companyId, unitId))) {
      throw conflict('The QR code is disabled. Enable it first.', { code: 'qr_disabled' });
    }
    await this.db.transaction((tx) => this.write(tx, companyId, unitId, userId, 'regenerated'));
    return this.state(companyId, unitId);
  }

  /** Disables the unit's code; its link answers 404 at once. Idempotent. */
  async disable(userId: string, companyId: string, unitId: string): Promise<UnitQrState> {
    await requireMember(this.db, userId, companyId, 'operate');
    await this.requireUnit(companyId, unitId);
    await this.db.transaction(async (tx) => {
      if (await repo.deleteQrCode(tx, companyId, unitId)) {
        await repo.recordQrChange(tx, {
          companyId,
          unitId,
          action: 'disabled',
          actorId: userId,
          at: this.deps.now(),
        });
      }
    });
    return this.state(companyId, unitId);
  }

  /**
   * Enables (`enabled: true`) or disables the QR codes of `unitIds` (1 … BULK_EDIT_UNIT_MAX) in one
   * transaction, all or nothing (the rooms list's bulk edit). Codes already as asked stay as they
   * are (an enabled code keeps its token). Enabling needs a free code of the allowance (one per
   * licence) for each unit without one; each change is in the trail and the audit log.
   * @returns the units covered (`count`), the codes changed (`changed`) and the allowance after.
   * @throws HttpError 404 for a stranger or any id that is not the company's unit, 403 without
   *   `operate`, 409 `qr_allowance_short` (params free, needed) when fewer codes are free than
   *   units to enable — then nothing changes.
   */
  async bulkSet(userId: string, companyId: string, input: UnitQrBulk): Promise<UnitQrBulkResult> {
    await requireMember(this.db, userId, companyId, 'operate');
    const ids = [...new Set(input.unitIds)];
    const changed = await this.db.transaction(async (tx) => {
      // Serialises allowance checks of the company, as a single enable does.
      await repo.lockCompany(tx, companyId);
      const units = await lockUnitsForChange(tx, companyId, ids);
      requireAllUnits(
        input.unitIds,
        units.map((u) => u.id),
      );
      const withCode = new Set(await repo.unitIdsWithQrCode(tx, companyId, ids));
      const at = this.deps.now();
      let unitIds: string[];
      if (input.enabled) {
        unitIds = ids.filter((id) => !withCode.has(id));
        const { remaining } = await this.allowance(tx, companyId);
        if (remaining !== null && unitIds.length > remaining) {
          const params = { free: remaining, needed: unitIds.length };
          throw conflict(
            `Only ${remaining} QR codes are free, ${unitIds.length} are needed. Nothing was changed.`,
            { code: 'qr_allowance_short', params },
          );
        }
        await repo.insertQrCodes(
          tx,
          unitIds.map((unitId) => ({
            companyId,
            unitId,
            token: newQrToken(),
            enabledBy: userId,
            enabledAt: at,
          })),
        );
      } else {
        unitIds = await repo.deleteQrCodes(tx, companyId, [...withCode]);
      }
      const action = input.enabled ? 'enabled' : 'disabled';
      await repo.recordQrChanges(
        tx,
        unitIds.map((unitId) => ({ companyId, unitId, action, actorId: userId, at })),
      );
      await recordUnitsChange(tx, {
        companyId,
        actorId: userId,
        route: BULK_UNIT_ROUTES.qrCode,
        unitIds: ids,
        fields: { enabled: input.enabled },
      });
      return unitIds.length;
    });
    return { ...(await this.allowance(this.db, companyId)), count: ids.length, changed };
  }

  private async write(db: Db, companyId: string, unitId: string, userId: string, action: repo.QrAction) {
    const at = this.deps.now();
    await repo.upsertQrCode(db, { companyId, unitId, token: newQrToken(), enabledBy: userId, enabledAt: at });
    await repo.recordQrChange(db, { companyId, unitId, action, actorId: userId, at });
  }
}
