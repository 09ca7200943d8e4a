/** Table-driven tests for every rule of spec §2 "Route guards". */
import type { LicenseCurrent, LicenseRecord, User } from '@heizplan/contracts/account';
import { describe, expect, it } from 'vitest';
import {
  agreementsAccepted,
  chooseCompanyId,
  type GuardInput,
  mainGuard,
  type ProfileResult,
  setupCompanyGuard,
  setupTermsGuard,
} from './guards.ts';

const user = (over: Partial<User> = {}): User => ({
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  email_verified: true,
  lang: 'de',
  created_at: '2026-01-01T00:00:00Z',
  last_login: null,
  company_ids: ['c1'],
  notices: [],
  second_factor_required: false,
  ...over,
});
const current: LicenseCurrent = { avv_version: 2, license_version: 1, privacy_version: 3 };
const accepted: LicenseRecord = {
  avv_accepted_version: 2,
  license_accepted_version: 1,
  privacy_accepted_version: 3,
};
const ok = (over: Partial<User> = {}): ProfileResult => ({ status: 200, profile: user(over) });

const input = (over: Partial<GuardInput> = {}): GuardInput => ({
  profileResult: ok(),
  currentVersions: current,
  acceptedVersions: accepted,
  query: new URLSearchParams(),
  ...over,
});

describe('main guard', () => {
  it.each<[string, Partial<GuardInput>, string | null]>([
    ['profile call failed without a status', { profileResult: { status: 0 } }, '/maintenance'],
    ['profile call answered 500', { profileResult: { status: 500 } }, '/maintenance'],
    ['profile call answered 404', { profileResult: { status: 404 } }, '/maintenance'],
    ['profile call answered 204 without a body', { profileResult: { status: 204 } }, '/maintenance'],
    ['profile has no language', { profileResult: ok({ lang: null }) }, '/setup/1'],
    [
      'no language wins over no companies',
      { profileResult: ok({ lang: null, company_ids: [] }) },
      '/setup/1',
    ],
    ['user has no companies', { profileResult: ok({ company_ids: [] }) }, '/setup/2'],
    [
      'a company requires a second factor the user lacks, before the agreements',
      { profileResult: ok({ second_factor_required: true }), acceptedVersions: null },
      '/second-factor',
    ],
    [
      'no companies wins over unaccepted agreements',
      { profileResult: ok({ company_ids: [] }), acceptedVersions: null },
      '/setup/2',
    ],
    ['agreements never accepted (no record)', { acceptedVersions: null }, '/setup/3'],
    [
      'data-processing agreement never accepted',
      { acceptedVersions: { ...accepted, avv_accepted_version: null } },
      '/setup/3',
    ],
    [
      'licence never accepted',
      { acceptedVersions: { ...accepted, license_accepted_version: null } },
      '/setup/3',
    ],
    [
      'privacy never accepted',
      { acceptedVersions: { ...accepted, privacy_accepted_version: null } },
      '/setup/3',
    ],
    [
      'data-processing agreement accepted in an old version',
      { acceptedVersions: { ...accepted, avv_accepted_version: 1 } },
      '/setup/3',
    ],
    [
      'licence version bumped after acceptance',
      { currentVersions: { ...current, license_version: 2 } },
      '/setup/3',
    ],
    [
      'privacy version bumped after acceptance',
      { currentVersions: { ...current, privacy_version: 4 } },
      '/setup/3',
    ],
    ['current versions unknown', { currentVersions: null }, '/setup/3'],
    ['everything in order', {}, null],
    ['English profile in order', { profileResult: ok({ lang: 'en' }) }, null],
  ])('%s → %s', (_, over, expected) => {
    expect(mainGuard(input(over))).toBe(expected);
  });
});

describe('setup step 2 guard', () => {
  it.each<[string, Partial<GuardInput>, string | null]>([
    ['user already has companies', {}, '/setup/3'],
    ['user already has companies, skipGuard=true', { query: new URLSearchParams('skipGuard=true') }, null],
    [
      'skipGuard with another value does not skip',
      { query: new URLSearchParams('skipGuard=yes') },
      '/setup/3',
    ],
    ['user has no companies', { profileResult: ok({ company_ids: [] }) }, null],
    ['profile unknown', { profileResult: { status: 0 } }, null],
  ])('%s → %s', (_, over, expected) => {
    expect(setupCompanyGuard(input(over))).toBe(expected);
  });
});

describe('setup step 3 guard', () => {
  it.each<[string, Partial<GuardInput>, string | null]>([
    ['all three agreements accepted', {}, '/units'],
    ['one agreement not accepted', { acceptedVersions: { ...accepted, avv_accepted_version: null } }, null],
    ['a version was bumped', { currentVersions: { ...current, avv_version: 3 } }, null],
    ['no licence record', { acceptedVersions: null }, null],
    [
      'user has no company to accept for',
      { profileResult: ok({ company_ids: [] }), acceptedVersions: null },
      '/setup/2',
    ],
    [
      'the company requires a second factor first (its agreements answer 403 until then)',
      { profileResult: ok({ second_factor_required: true }), acceptedVersions: null },
      '/second-factor',
    ],
  ])('%s → %s', (_, over, expected) => {
    expect(setupTermsGuard(input(over))).toBe(expected);
  });
});

describe('agreements and current company', () => {
  it('accepts only when every version matches', () => {
    expect(agreementsAccepted(current, accepted)).toBe(true);
    expect(agreementsAccepted(null, accepted)).toBe(false);
  });

  it.each<[string[], string | null, string | null]>([
    [['c1', 'c2'], 'c2', 'c2'],
    [['c1', 'c2'], 'gone', 'c1'],
    [['c1'], null, 'c1'],
    [[], 'c1', null],
  ])('companies %j with stored %s → %s', (ids, stored, expected) => {
    expect(chooseCompanyId(ids, stored)).toBe(expected);
  });
});
