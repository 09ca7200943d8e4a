/**
 * The route guard rules of spec §2 "Route guards", as pure functions of what the API said.
 * Each returns the path to send the user to, or `null` to let them proceed. The thin
 * components that fetch the data and apply these rules are in `guard-routes.tsx`.
 */
import type { LicenseCurrent, LicenseRecord, User } from '@heizplan/contracts/account';

/** Outcome of `GET /api/me/`: the HTTP status (0 when the call failed without one) and the body. */
export type ProfileResult = { status: 200; profile: User } | { status: number; profile?: undefined };

export interface GuardInput {
  profileResult: ProfileResult;
  /** `GET /api/licenses/current`; null when unknown. */
  currentVersions: LicenseCurrent | null;
  /** `GET /api/licenses/{companyId}/` of the current company; null when unknown or no company. */
  acceptedVersions: LicenseRecord | null;
  query: URLSearchParams;
}

export const SETUP_LANGUAGE = '/setup/1';
export const SETUP_COMPANY = '/setup/2';
export const SETUP_TERMS = '/setup/3';
export const MAINTENANCE = '/maintenance';
export const UNITS = '/units';
export const SECOND_FACTOR = '/second-factor';

/**
 * True when all three agreements (data-processing agreement, licence, privacy) are accepted
 * in their current version. Unknown versions count as not accepted.
 */
export function agreementsAccepted(current: LicenseCurrent | null, accepted: LicenseRecord | null): boolean {
  if (!current || !accepted) return false;
  return (
    accepted.avv_accepted_version === current.avv_version &&
    accepted.license_accepted_version === current.license_version &&
    accepted.privacy_accepted_version === current.privacy_version
  );
}

/**
 * Main guard (units, groups, events, unit log, devices, gateways, settings, subSetup):
 * maintenance when the profile call failed or was not 200; step 1 without a language; step 2
 * without companies; the enrolment screen while a company requires a second factor the user
 * lacks (decision 0078: its calls answer 403 then, the agreements' too); step 3 when an agreement
 * is unaccepted or accepted in an old version.
 */
export function mainGuard({ profileResult, currentVersions, acceptedVersions }: GuardInput): string | null {
  if (profileResult.status !== 200 || !profileResult.profile) return MAINTENANCE;
  const { profile } = profileResult;
  if (!profile.lang) return SETUP_LANGUAGE;
  if (profile.company_ids.length === 0) return SETUP_COMPANY;
  if (profile.second_factor_required) return SECOND_FACTOR;
  if (!agreementsAccepted(currentVersions, acceptedVersions)) return SETUP_TERMS;
  return null;
}

/**
 * Setup step 2 (company): a user who already has companies goes on to step 3, unless the
 * query says `skipGuard=true` (creating or joining a further company from the settings).
 */
export function setupCompanyGuard({ profileResult, query }: GuardInput): string | null {
  if (!profileResult.profile) return null;
  if (profileResult.profile.company_ids.length > 0 && query.get('skipGuard') !== 'true') return SETUP_TERMS;
  return null;
}

/**
 * Setup step 3 (terms): to units when the current company has all three agreements accepted.
 * Beyond the spec: without any company there is nothing to accept for, so back to step 2; while a
 * company requires a second factor the user lacks, to its enrolment screen (decision 0078).
 */
export function setupTermsGuard({
  profileResult,
  currentVersions,
  acceptedVersions,
}: GuardInput): string | null {
  if (profileResult.profile?.company_ids.length === 0) return SETUP_COMPANY;
  // A company joined in step 2 may require a second factor: its agreements answer 403 until then.
  if (profileResult.profile?.second_factor_required) return SECOND_FACTOR;
  return agreementsAccepted(currentVersions, acceptedVersions) ? UNITS : null;
}

/**
 * The company the app works in: the stored choice when the user still belongs to it, else
 * the first of the user's companies, else none.
 */
export function chooseCompanyId(companyIds: readonly string[], stored: string | null): string | null {
  if (stored && companyIds.includes(stored)) return stored;
  return companyIds[0] ?? null;
}
