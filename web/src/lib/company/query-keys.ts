/** TanStack Query keys of the company calls. */
export const companyKeys = {
  all: ['companies'] as const,
  company: (companyId: string) => ['company', companyId] as const,
};
