/**
 * The getting-started checklist of a company (`@heizplan/contracts/getting-started`): each step
 * is read from what the company has, so it ticks when the building, room, plan, licence, uplink,
 * paired device or QR code appears, by whatever way it was made (screen, import, API token) and
 * whoever made it. Members who run the heating read it ('operate'); the checklist only leads to
 * screens where something is set up, so a member who only reads has no use for it.
 */
import type { GettingStarted, GettingStartedStep } from '@heizplan/contracts/getting-started';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyProgress } from './getting-started.repository.ts';

export interface GettingStartedDeps {
  db: Db;
  /** Licences the company may use now; null = unlimited (no billing on this server). */
  licences: (db: Db, companyId: string) => Promise<number | null>;
}

export class GettingStartedService {
  constructor(private readonly deps: GettingStartedDeps) {}

  /**
   * The company's steps in checklist order and the time of its newest uplink (ISO, UTC; null
   * when none arrived). Without billing the licence step is left out: there is nothing to buy.
   * @throws HttpError 404 when `userId` is not a member of `companyId`, 403 when their role
   *   may not operate.
   */
  async get(userId: string, companyId: string): Promise<GettingStarted> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    const [progress, licences] = await Promise.all([
      findCompanyProgress(db, companyId),
      this.deps.licences(db, companyId),
    ]);
    const steps: GettingStartedStep[] = [
      { id: 'building', done: progress.hasBuilding },
      { id: 'units', done: progress.hasUnit },
      { id: 'plan', done: progress.hasPlan },
      ...(licences === null ? [] : [{ id: 'licences' as const, done: licences > 0 }]),
      { id: 'uplinks', done: progress.lastUplinkAt !== null },
      { id: 'devices', done: progress.hasPairedDevice },
      { id: 'qr_codes', done: progress.hasQrCode },
    ];
    return { steps, lastUplinkAt: progress.lastUplinkAt?.toISOString() ?? null };
  }
}
