/**
 * `/device-profiles` (decision 0062): what the valves of a model should be configured to and
 * where, with how far each profile has reached its devices. Everyone who reads the company sees
 * it; members who may operate create, change and delete profiles.
 */
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useDeviceProfiles } from '../api/device-profiles.ts';
import { ProfileDialog } from '../components/profile-dialog.tsx';
import { ProfilesList } from '../components/profiles-list.tsx';

export function DeviceProfilesPage() {
  const { t } = useTranslation('device-profiles');
  usePageTitle(t('title'));
  const canOperate = useCan('operate');
  const profiles = useDeviceProfiles();
  return (
    <section
      className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4 p-4 sm:p-6"
      aria-labelledby="device-profiles-title"
      data-testid="device-profiles-page"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex max-w-2xl flex-col gap-1">
          <h1 id="device-profiles-title" className="text-2xl font-semibold">
            {t('title')}
          </h1>
          <p className="text-sm text-stone-700">{t('intro')}</p>
          {profiles.data && (
            <p className="text-xs text-stone-600">{t('budget', { seconds: profiles.data.airtimeBudgetS })}</p>
          )}
        </div>
        {canOperate && profiles.data && profiles.data.models.length > 0 && (
          <ProfileDialog
            profile={null}
            models={profiles.data.models}
            trigger={<Button testid="device-profile-new">{t('new')}</Button>}
          />
        )}
      </div>
      <Spinner loading={profiles.isPending} label={t('loading')} />
      {profiles.isError && (
        <p role="alert" className="text-sm text-red-700" data-testid="device-profiles-error">
          {t('loadError')}
        </p>
      )}
      {profiles.data && <ProfilesList list={profiles.data} canOperate={canOperate} />}
    </section>
  );
}
