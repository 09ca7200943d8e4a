/** TanStack Query keys of the company settings calls. */
export const companyKeys = {
  company: (companyId: string) => ['company', companyId] as const,
};
