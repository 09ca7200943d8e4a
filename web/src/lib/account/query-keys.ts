/** TanStack Query keys of the account calls, shared so mutations invalidate the right entries. */
export const accountKeys = {
  me: ['me'] as const,
  currentLicenses: ['licenses', 'current'] as const,
  companyLicenses: (companyId: string) => ['licenses', companyId] as const,
  companies: ['companies'] as const,
  secondFactor: ['me', 'second-factor'] as const,
  passkeys: ['me', 'passkeys'] as const,
  sessions: ['me', 'sessions'] as const,
};
