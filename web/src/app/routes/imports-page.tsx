/**
 * `/imports?kind=devices|units` (decision 0063): the import of units or devices from a CSV or
 * XLSX file, reached from the devices and units screens by members who may create them
 * (`operate`). Composes the imports feature with billing's licences free before a device import
 * and its shop link (also when licences are short), and refreshes the devices' and units' lists once rows were imported.
 */
import type { ImportKind } from '@heizplan/contracts/imports';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DeviceLicencesNote } from '../../features/billing/components/device-licences-note.tsx';
import { useShopTarget } from '../../features/billing/components/subscription-notice.tsx';
import { deviceKeys } from '../../features/devices/api/query-keys.ts';
import { ImportWizard } from '../../features/imports/components/import-wizard.tsx';
import { heatingKeys } from '../../lib/heating/query-keys.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useCan } from '../../lib/use-can.ts';

export function ImportsPage() {
  const { t } = useTranslation('imports');
  usePageTitle(t('title'));
  const canOperate = useCan('operate');
  const canManage = useCan('manage');
  const shop = useShopTarget();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const kind: ImportKind = search.get('kind') === 'units' ? 'units' : 'devices';
  // Devices with a unit change the units' delivery state too: both lists are read again.
  const imported = () => {
    void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    void queryClient.invalidateQueries({ queryKey: heatingKeys.all });
  };

  const buyLicences = shop && canManage && (
    <Link to={shop} className="font-medium text-brand-700 underline" data-testid="import-buy-licences">
      {t('check.buyLicences')}
    </Link>
  );

  return (
    <section className="mx-auto flex w-full max-w-4xl flex-col gap-4 p-4 sm:p-6" data-testid="imports-page">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="max-w-2xl text-sm text-stone-700">{t('intro')}</p>
      </div>
      {canOperate ? (
        <ImportWizard
          initialKind={kind}
          onImported={imported}
          licenceAction={buyLicences}
          deviceLicencesNote={<DeviceLicencesNote action={buyLicences} />}
        />
      ) : (
        <p className="text-sm text-stone-700" data-testid="imports-forbidden">
          {t('forbidden')}
        </p>
      )}
    </section>
  );
}
