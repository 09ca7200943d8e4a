/**
 * Before a device import: each imported device needs a licence (spec §1 "device licences billed by
 * subscription"), so the import page says how many are free before the file is chosen, not only
 * after the mapping ("Lizenzen: 0 frei, 10 benötigt"). Free = usable licences − registered devices,
 * as the import's own check counts them. Nothing while loading or with unlimited licences.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentCompanyId } from '../../../lib/use-can.ts';
import { useBilling } from '../api/billing.ts';

export function DeviceLicencesNote({ action }: { action?: ReactNode }) {
  const { t, i18n } = useTranslation('billing');
  const billing = useBilling(useCurrentCompanyId());
  const data = billing.data;
  if (!data || data.provider === 'none' || data.usableLicences === null) return null;
  const free = Math.max(0, data.usableLicences - data.deviceCount);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <p
      className={
        free === 0
          ? 'rounded-lg bg-amber-50 p-3 text-sm text-amber-900'
          : 'rounded-lg bg-stone-50 p-3 text-sm text-stone-700'
      }
      data-testid="import-licences-note"
    >
      {free === 0
        ? t('importNote.none')
        : t('importNote.free', {
            count: free,
            free: number.format(free),
            total: number.format(data.usableLicences),
          })}{' '}
      {action}
    </p>
  );
}
