/**
 * `/settings/team` (spec §2 team): title and description, the invite form, the
 * invite-code section and the members table. Only admins manage the team (decision 0022);
 * other members, who do not see the tab, are told so if they open the address.
 */
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useCan } from '../../../lib/use-can.ts';
import { InviteCodes } from '../components/invite-codes.tsx';
import { InviteForm } from '../components/invite-form.tsx';
import { MembersTable } from '../components/members-table.tsx';

export function TeamPage() {
  const { t } = useTranslation('team');
  const company = useCompany();
  const canManage = useCan('manage');

  if (!company.data) {
    return company.isError ? (
      <p role="alert" className="text-red-800">
        {t('loadError')}
      </p>
    ) : (
      <Spinner loading testid="team-loading" />
    );
  }
  if (!canManage) {
    return (
      <SettingsCard title={t('title')} testid="settings-team">
        <p className="text-sm text-stone-700" data-testid="team-admins-only">
          {t('adminsOnly')}
        </p>
      </SettingsCard>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <SettingsCard title={t('title')} description={t('description')} testid="settings-team">
        <h3 className="mb-3 text-sm font-semibold text-ink">{t('invite.title')}</h3>
        <InviteForm company={company.data} />
      </SettingsCard>
      <SettingsCard title={t('codes.title')} description={t('codes.description')} testid="team-codes">
        <InviteCodes company={company.data} />
      </SettingsCard>
      <SettingsCard title={t('members.title')} testid="team-members">
        <MembersTable />
      </SettingsCard>
    </div>
  );
}
