/**
 * Setup data of spec §3 and the button rules of spec §5: the wizard's state across its three
 * steps (language, company, terms).
 */
import type { Language } from '@heizplan/contracts/account';

export interface SetupData {
  locale: Language;
  /** Create a new company (true) or join one with an invite code (false). */
  createNew: boolean;
  companyName: string;
  inviteCode: string;
  acceptedPrivacy: boolean;
  acceptedTerms: boolean;
  acceptedAvv: boolean;
  declaration: boolean;
}

/** Spec §3 defaults: locale en, createNew true, everything else empty or unticked. */
export function defaultSetupData(locale: Language = 'en'): SetupData {
  return {
    locale,
    createNew: true,
    companyName: '',
    inviteCode: '',
    acceptedPrivacy: false,
    acceptedTerms: false,
    acceptedAvv: false,
    declaration: false,
  };
}

/**
 * The invite link's `invite_code`: step 2 opens in "join" mode with the code filled in.
 */
export function withInviteCode(data: SetupData, inviteCode: string | null): SetupData {
  return inviteCode ? { ...data, createNew: false, inviteCode } : data;
}

/** Spec §5: next is disabled when creating with an empty name or joining with an empty code. */
export function canContinueCompany(data: SetupData): boolean {
  return (data.createNew ? data.companyName : data.inviteCode).trim().length > 0;
}

/** Spec §5: next is enabled only when all four checkboxes are ticked. */
export function canContinueTerms(data: SetupData): boolean {
  return data.acceptedPrivacy && data.acceptedTerms && data.acceptedAvv && data.declaration;
}

export const SETUP_STEPS = [1, 2, 3] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export function parseStep(step: string | undefined): SetupStep | null {
  const n = Number(step);
  return SETUP_STEPS.find((s) => s === n) ?? null;
}

/** The step's props: the wizard's data, a partial update, and where to go next. */
export interface StepProps {
  data: SetupData;
  update: (patch: Partial<SetupData>) => void;
}
