/**
 * Thin route wrappers that fetch what the guard rules of `guards.ts` need and apply them
 * (spec §2 "Route guards"). While the answers load they show a spinner; a redirect replaces
 * the history entry so "back" does not bounce between guard and target.
 */
import type { LicenseCurrent, LicenseRecord, User } from '@heizplan/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useParams, useSearchParams } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { useCompanyLicenses } from '../lib/account/get-company-licenses.ts';
import { useCurrentLicenses } from '../lib/account/get-current-licenses.ts';
import { useMe } from '../lib/account/get-me.ts';
import { ApiError } from '../lib/api-client.ts';
import { getCurrentCompanyId, setCurrentCompanyId } from '../lib/client-storage.ts';
import {
  chooseCompanyId,
  type GuardInput,
  MAINTENANCE,
  mainGuard,
  type ProfileResult,
  setupCompanyGuard,
  setupTermsGuard,
} from './guards.ts';
import i18n, { setLanguage } from './i18n.ts';

function profileResultOf(me: UseQueryResult<User>): ProfileResult {
  if (me.data) return { status: 200, profile: me.data };
  return { status: me.error instanceof ApiError ? me.error.status : 0 };
}

/** Spec §8: failures of calls other than the profile are only logged. */
function orNull<T>(query: UseQueryResult<T>, what: string): T | null {
  if (query.error) console.info(`${what} failed`, query.error);
  return query.data ?? null;
}

/**
 * Loads profile and agreement versions for the current company (chosen and remembered in
 * client storage), and applies the profile's language to the UI.
 */
function useGuardData(needsLicenses: boolean) {
  const me = useMe();
  const profile = me.data;
  const companyId = profile ? chooseCompanyId(profile.company_ids, getCurrentCompanyId()) : null;
  // The agreements' call answers 403 while a second factor is missing; the guard asks for that first.
  const withLicenses = needsLicenses && companyId !== null && !profile?.second_factor_required;
  const current = useCurrentLicenses(withLicenses);
  const accepted = useCompanyLicenses(withLicenses ? companyId : null);

  useEffect(() => {
    if (companyId && companyId !== getCurrentCompanyId()) setCurrentCompanyId(companyId);
  }, [companyId]);
  useEffect(() => {
    if (profile?.lang && profile.lang !== i18n.language) void setLanguage(profile.lang);
  }, [profile?.lang]);

  const loading = me.isPending || (withLicenses && (current.isPending || accepted.isPending));
  const [query] = useSearchParams();
  const input: GuardInput = {
    profileResult: profileResultOf(me),
    currentVersions: withLicenses ? orNull<LicenseCurrent>(current, 'current licence versions') : null,
    acceptedVersions: withLicenses ? orNull<LicenseRecord>(accepted, 'accepted licence versions') : null,
    query,
  };
  return { loading, input };
}

function GuardSpinner() {
  return (
    <div className="flex min-h-64 flex-1 items-center justify-center p-6" data-testid="guard-loading">
      <Spinner loading size="lg" />
    </div>
  );
}

/** Main guard: units, groups, events, unit log, devices, gateways, settings, subSetup. */
export function MainGuard({ children }: { children?: ReactNode }) {
  const { loading, input } = useGuardData(true);
  if (loading) return <GuardSpinner />;
  const target = mainGuard(input);
  if (target) return <Navigate to={target} replace />;
  return children ?? <Outlet />;
}

/** Guard of `/setup/:step`: step 2 → 3 when companies exist (unless skipGuard), step 3 → units when accepted. */
export function SetupGuard({ children }: { children?: ReactNode }) {
  const { step } = useParams();
  const { loading, input } = useGuardData(step === '3');
  if (loading) return <GuardSpinner />;
  if (input.profileResult.status !== 200) return <Navigate to={MAINTENANCE} replace />;
  const target = step === '2' ? setupCompanyGuard(input) : step === '3' ? setupTermsGuard(input) : null;
  if (target) return <Navigate to={target} replace />;
  return children ?? <Outlet />;
}
