/**
 * Tenancy and role guard (docs/architecture.md, §10, decision 0022): every company-scoped
 * service calls `requireMember` first with the capability the operation needs. A company the
 * caller does not belong to answers 404, never 403, so ids of other tenants cannot be probed;
 * a member whose role lacks the capability gets 403. A member whom the company's policy asks for a
 * second factor they have not set up gets 403 `second_factor_required` (decision 0078) on every
 * company call; the account calls under `/api/me` that set one up are not company-scoped.
 */
import type { Role } from '@heizplan/contracts/account';
import { type Capability, can } from '@heizplan/contracts/permissions';
import type { Db } from '../db/client.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { findMembershipRole } from './auth.repository.ts';

export type { Capability, Role };

export interface Membership {
  companyId: string;
  userId: string;
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a member without the right is told (403), per capability. */
const REFUSAL: Record<Capability, string> = {
  read: 'Your role may not see this company.',
  operate: 'Your role may only read; ask an admin or a heating member of the company.',
  manage: 'Only company admins may do this.',
};

/**
 * @returns the caller's membership when their role has `capability` in `companyId`.
 * @throws HttpError 404 when `userId` is not a member of `companyId` (or the id is malformed),
 *   403 `second_factor_required` when the company's policy wants a second factor the member
 *   lacks (OWASP ASVS 5.0 §6.3.3), 403 when the member's role lacks `capability`.
 */
export async function requireMember(
  db: Db,
  userId: string,
  companyId: string,
  capability: Capability,
): Promise<Membership> {
  if (!isUuid(companyId)) throw notFound('Company not found.');
  const row = await findMembershipRole(db, companyId, userId);
  if (!row) throw notFound('Company not found.');
  if (row.secondFactorMissing) throw secondFactorRequired();
  requireCapability(row.role, capability);
  return { companyId, userId, role: row.role };
}

/**
 * The refusal for a member the company's second-factor policy covers who has none yet
 * (decision 0078): the web app answers it with its enrolment screen.
 */
export function secondFactorRequired() {
  return forbidden(
    'This company requires a second factor: set up an authenticator app or a passkey under /api/me first.',
    { code: 'second_factor_required' },
  );
}

/** Whether `id` can be a company (or other) id; a malformed one is answered like an unknown one. */
export const isUuid = (id: string) => UUID.test(id);

/**
 * For a query that read the membership itself (units page): the member's `role` must have
 * `capability`. @throws HttpError 403 otherwise, with the refusal `requireMember` gives.
 */
export function requireCapability(role: Role, capability: Capability) {
  if (!can(role, capability)) {
    throw forbidden(REFUSAL[capability], { code: 'role_forbidden', params: { capability } });
  }
}
