/**
 * Switching the current company (spec §1 "Members belong to one or more companies", §3 client
 * storage): the choice is stored, every company-scoped answer in the cache is dropped so no
 * screen shows the previous company's data, and the person lands on the units of the new one.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { accountKeys } from '../account/query-keys.ts';
import { setCurrentCompanyId } from '../client-storage.ts';
import { companyKeys } from './query-keys.ts';

/** Query keys that belong to the person, not to a company, and survive a switch. */
const PERSONAL = [accountKeys.me, companyKeys.all, accountKeys.currentLicenses].map((key) =>
  JSON.stringify(key),
);

export function useSwitchCompany() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  /** `null` after leaving a company: the guards then pick the first remaining one, or setup. */
  return (companyId: string | null) => {
    setCurrentCompanyId(companyId);
    if (companyId === null) {
      void queryClient.invalidateQueries({ queryKey: accountKeys.me });
      void queryClient.invalidateQueries({ queryKey: companyKeys.all });
    }
    // Removed, not refetched: most keys do not name the company, and a refetch of an old
    // observer would file the new company's answer under them.
    queryClient.removeQueries({ predicate: (query) => !PERSONAL.includes(JSON.stringify(query.queryKey)) });
    void navigate('/units');
  };
}
