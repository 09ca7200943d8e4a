/**
 * /assign runs outside the main guard (spec §2 "Route guards"), so a phone that opens it
 * directly may have no current company yet: pick it from the profile the way the guard does
 * (`chooseCompanyId`) and remember it, so the company-scoped calls have their id.
 */
import { useEffect, useState } from 'react';
import { chooseCompanyId } from '../../app/guards.ts';
import { useMe } from '../../lib/account/get-me.ts';
import { getCurrentCompanyId, setCurrentCompanyId } from '../../lib/client-storage.ts';

export type AssignCompanyState = 'loading' | 'ready' | 'no-company' | 'error';

export function useAssignCompany(): AssignCompanyState {
  const me = useMe();
  const companyId = me.data ? chooseCompanyId(me.data.company_ids, getCurrentCompanyId()) : null;
  const [stored, setStored] = useState(getCurrentCompanyId);
  useEffect(() => {
    if (companyId === null) return;
    setCurrentCompanyId(companyId);
    setStored(companyId);
  }, [companyId]);
  if (me.isError) return 'error';
  if (me.data && companyId === null) return 'no-company';
  return companyId !== null && stored === companyId ? 'ready' : 'loading';
}
