/**
 * The company's device profiles (decision 0062), one card each: name, model, the configuration
 * in words, where it applies, and how many of its devices report it (in sync, being sent,
 * differing). Members who may operate change and delete them; deleting asks first.
 */
import type { DeviceProfile, DeviceProfileList } from '@heizplan/contracts/device-profiles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ListEmptyState } from '../../../components/ui/list-empty-state.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useDeleteDeviceProfile } from '../api/device-profiles.ts';
import { ProfileDialog } from './profile-dialog.tsx';

/** Up to this many rooms a profile applies to are named in its line. */
const ROOMS_NAMED = 3;

export function ProfilesList({ list, canOperate }: { list: DeviceProfileList; canOperate: boolean }) {
  const { t } = useTranslation('device-profiles');
  const { toast } = useToast();
  const remove = useDeleteDeviceProfile();
  const [deleting, setDeleting] = useState<DeviceProfile | null>(null);
  if (list.results.length === 0) {
    return (
      <ListEmptyState
        title={t('empty.title')}
        paragraphs={[t('empty.text'), t('empty.budget', { seconds: list.airtimeBudgetS })]}
        readOnlyText={canOperate ? '' : t('empty.readOnly')}
        testid="device-profiles"
      />
    );
  }
  return (
    <>
      <ul className="grid gap-3 lg:grid-cols-2" data-testid="device-profiles-list">
        {list.results.map((profile) => (
          <li
            key={profile.id}
            className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
            data-testid={`device-profile-${profile.id}`}
          >
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h2 className="font-semibold">{profile.name}</h2>
                <p className="text-xs text-stone-600">
                  {list.models.find((m) => m.model === profile.model)?.name ?? profile.model}
                </p>
              </div>
              {canOperate && (
                <div className="flex gap-2">
                  <ProfileDialog
                    profile={profile}
                    models={list.models}
                    trigger={
                      <Button variant="secondary" testid={`device-profile-edit-${profile.id}`}>
                        {t('edit')}
                      </Button>
                    }
                  />
                  <Button
                    variant="secondary"
                    onClick={() => setDeleting(profile)}
                    testid={`device-profile-delete-${profile.id}`}
                  >
                    {t('delete')}
                  </Button>
                </div>
              )}
            </div>
            <ConfigSummary profile={profile} />
            <Places profile={profile} />
            <p className="text-sm" data-testid={`device-profile-sync-${profile.id}`}>
              {profile.sync.devices === 0
                ? t('sync.none')
                : t('sync.counts', {
                    count: profile.sync.devices,
                    inSync: profile.sync.inSync,
                    pending: profile.sync.pending,
                    differs: profile.sync.differs,
                  })}
            </p>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('deleteConfirm.title', { name: deleting?.name ?? '' })}
        confirmText={t('deleteConfirm.confirm')}
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast({ type: 'success', title: t('deleteConfirm.done'), testid: 'toast-device-profile-deleted' });
        }}
        testid="device-profile-delete-confirm"
      >
        <p className="text-sm">{t('deleteConfirm.text')}</p>
      </ConfirmDialog>
    </>
  );
}

function ConfigSummary({ profile }: { profile: DeviceProfile }) {
  const { t } = useTranslation('device-profiles');
  const format = useHeatingFormat();
  const { config } = profile;
  return (
    <ul className="text-sm text-stone-700" data-testid={`device-profile-config-${profile.id}`}>
      <li>{t('summary.keepAlive', { minutes: config.keepAliveMinutes })}</li>
      <li>
        {config.openWindow.enabled
          ? t('summary.openWindow', {
              minutes: config.openWindow.durationMinutes,
              delta: format.plain(config.openWindow.deltaK),
            })
          : t('summary.openWindowOff')}
      </li>
      <li>
        {config.childLock
          ? t(config.childLockKeptOffline ? 'summary.childLockKept' : 'summary.childLock')
          : t('summary.noChildLock')}
      </li>
      <li>
        {t('summary.range', {
          min: format.celsius(config.temperatureRange.min),
          max: format.celsius(config.temperatureRange.max),
        })}
      </li>
      {config.temperatureOffset !== 0 && (
        <li>{t('summary.offset', { offset: format.plain(config.temperatureOffset) })}</li>
      )}
    </ul>
  );
}

function Places({ profile }: { profile: DeviceProfile }) {
  const { t } = useTranslation('device-profiles');
  const { buildings } = useAllBuildings();
  const groups = useAllGroups().data?.results ?? [];
  const { places } = profile;
  const names = [
    ...(places.company ? [t('places.company')] : []),
    ...places.buildingIds.map((id) => buildings.find((b) => b.id === id)?.name ?? '…'),
    ...places.groupIds.map((id) => groups.find((g) => g.id === id)?.name ?? '…'),
    // A few rooms by name; many as a count, so the line stays short.
    ...(profile.units.length > ROOMS_NAMED
      ? [t('places.units', { count: profile.units.length })]
      : profile.units.map((u) => u.name)),
  ];
  return (
    <p className="text-sm" data-testid={`device-profile-places-${profile.id}`}>
      <span className="font-medium">{t('places.label')} </span>
      {names.length > 0 ? names.join(', ') : t('places.nowhere')}
    </p>
  );
}
