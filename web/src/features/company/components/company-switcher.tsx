/**
 * The current company in the navigation (spec §1, §3 client storage). With one
 * company it is just its name; with several, a native select — keyboard and screen readers
 * get their platform behaviour — that switches the whole app to the chosen company.
 */
import { useTranslation } from 'react-i18next';
import { Select } from '../../../components/ui/select.tsx';
import { useCompanies } from '../../../lib/company/list-companies.ts';
import { useSwitchCompany } from '../../../lib/company/use-switch-company.ts';
import { useCurrentCompanyId } from '../../../lib/use-can.ts';

export function CompanySwitcher({ id }: { id: string }) {
  const { t } = useTranslation('company');
  const companies = useCompanies();
  const switchCompany = useSwitchCompany();
  const current = useCurrentCompanyId();
  const list = companies.data?.results ?? [];
  const currentName = list.find((company) => company.id === current)?.name;
  if (!currentName) return null;
  return (
    <div className="flex flex-col gap-1 px-3" data-testid="company-switcher">
      <label htmlFor={id} className="text-xs font-medium text-stone-600">
        {t('switcher.label')}
      </label>
      {list.length > 1 ? (
        <Select
          id={id}
          value={current ?? ''}
          onChange={switchCompany}
          testid="company-switcher-select"
          options={list.map((company) => ({
            id: company.id,
            value: company.name,
            testid: `company-option-${company.id}`,
          }))}
        />
      ) : (
        <output id={id} className="truncate text-sm font-semibold text-ink" data-testid="company-current">
          {currentName}
        </output>
      )}
    </div>
  );
}
