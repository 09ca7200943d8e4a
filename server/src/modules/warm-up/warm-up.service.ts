/**
 * A unit's learned warm-up model as the unit page shows it (decision 0056). Checks membership
 * (404 for other companies) and the unit (404 when unknown); every role may read it.
 */
import type { UnitWarmUp } from '@heizplan/contracts/optimum';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyOptimum, findWarmUpModel } from '../../heating/optimum-inputs.ts';
import { notFound } from '../../http/errors.ts';
import { findUnit } from '../units/units.service.ts';

export class WarmUpService {
  constructor(private readonly deps: { db: Db }) {}

  async get(userId: string, companyId: string, unitId: string): Promise<UnitWarmUp> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'read');
    const record = await findUnit(db, companyId, unitId);
    const companyMode = await findCompanyOptimum(db, companyId);
    if (!record || !companyMode) throw notFound('Unknown unit', { code: 'unknown_unit' });
    const row = await findWarmUpModel(db, companyId, unitId);
    const optimumStart = record.unit.optimumStart;
    return {
      mode: optimumStart ? companyMode : 'off',
      companyMode,
      optimumStart,
      model: row
        ? {
            learned: row.learned,
            deadtimeMinutes: row.deadtimeMinutes,
            rateAt0: row.rateAt0,
            ratePerOutdoorK: row.ratePerOutdoorK,
            coolRate: row.coolRate,
            comfortHoldMinutes: row.comfortHoldMinutes,
            confidence: row.confidence,
            learnedAt: row.learnedThrough.toISOString(),
          }
        : null,
      sessions: row?.sessions ?? [],
      mornings: row?.mornings ?? [],
    };
  }
}
