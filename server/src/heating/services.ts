/**
 * What the services that change setpoints (units, groups, plans, events, the occupants' view)
 * share: their collaborators, and the company's heating settings behind the membership check.
 */
import { type Capability, requireMember } from '../auth/membership.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../http/errors.ts';
import { type CompanyHeating, findCompanyHeating } from './inputs.ts';

/** Wakes the heating scheduler so queued setpoints leave now instead of at its next tick. */
export interface SetpointWaker {
  wake(): void;
}

/** Collaborators a heating service needs besides the database. */
export interface HeatingServiceDeps {
  db: Db;
  /** Current instant (UTC). */
  now: () => Date;
  /** Tells the scheduler that commands are waiting (sent right away instead of at the next tick). */
  wake: () => void;
}

/**
 * Loads the company's heating settings after the membership and role check (`requireMember`).
 * @throws HttpError 404 for a non-member or a missing company, 403 without `capability`.
 */
export async function requireCompanyHeating(
  db: Db,
  userId: string,
  companyId: string,
  capability: Capability,
): Promise<CompanyHeating> {
  await requireMember(db, userId, companyId, capability);
  const company = await findCompanyHeating(db, companyId);
  if (!company) throw notFound('Company not found.');
  return company;
}
