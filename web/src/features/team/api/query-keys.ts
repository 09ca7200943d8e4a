/** TanStack Query keys of the team calls, per company. */
export const teamKeys = {
  members: (companyId: string) => ['team', companyId, 'members'] as const,
  invites: (companyId: string) => ['team', companyId, 'invites'] as const,
};
