/**
 * The team's members (spec §2 team): name, email and role — the first three sortable — and
 * actions on the UI-kit table: change a member's role and remove a member (or, on one's own
 * row, leave). Removing opens a confirmation with name and email (spec §4); the dialog closes
 * whatever the outcome, a failure shows 'Error deleting' (`delete_error`), and closing clears
 * the selection. The last admin's role and removal are locked, and the server refuses them too.
 * A column names each member's second factors (decision 0078) and marks those the company's
 * policy requires one of who have none; "Reset 2FA" on another member's row with a factor removes
 * them after a confirmation (the member is signed out and mailed).
 */
import type { Member, SecondFactorPolicy } from '@heizplan/contracts/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { MenuButton } from '../../../components/ui/menu-button.tsx';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useMe } from '../../../lib/account/get-me.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useSwitchCompany } from '../../../lib/company/use-switch-company.ts';
import { isRole, roleOptions } from '../../../lib/roles.ts';
import { useChangeRole, useMembers, useRemoveMember, useResetSecondFactor } from '../api/members.ts';

export function MembersTable() {
  const { t } = useTranslation('team');
  const { toast } = useToast();
  const members = useMembers();
  const me = useMe();
  const company = useCompany();
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const switchCompany = useSwitchCompany();
  const [selected, setSelected] = useState<Member | null>(null);
  const reset = useResetSecondFactor();
  const [resetting, setResetting] = useState<Member | null>(null);

  const rows = members.data ?? [];
  const admins = rows.filter((member) => member.role === 'admin').length;
  const isLastAdmin = (member: Member) => member.role === 'admin' && admins <= 1;
  const isSelf = (member: Member) => member.id === me.data?.id;
  const lastAdminToast = () =>
    toast({ type: 'error', title: t('toasts.last_admin'), testid: 'toast-last-admin' });

  const columns: TableColumn<Member>[] = [
    {
      key: 'name',
      label: t('members.name'),
      sortable: true,
      wrap: true,
      render: (member) => (
        <>
          <span className="font-medium text-ink">
            {member.name}
            {isSelf(member) && <span className="ml-1 text-stone-600">{t('members.you')}</span>}
          </span>
          {/* On a phone the email sits under the name instead of in a column of its own. */}
          <span className="block break-all text-stone-600 md:hidden">{member.email}</span>
        </>
      ),
    },
    { key: 'email', label: t('members.email'), sortable: true, minScreen: 'md' },
    {
      key: 'role',
      label: t('members.role'),
      sortable: true,
      // On a phone the role menu button below names the role.
      minScreen: 'sm',
      sortValue: (member) => t(`common:roles.${member.role}`),
      render: (member) => (
        <span data-testid={`member-role-${member.id}`}>{t(`common:roles.${member.role}`)}</span>
      ),
    },
    {
      key: 'factors',
      label: t('members.factors'),
      minScreen: 'sm',
      // Wraps, so that the actions still fit beside it in the settings' column at 1280 px.
      wrap: true,
      sortValue: (member) => factorCount(member),
      render: (member) => (
        <SecondFactors member={member} policy={company.data?.second_factor_required ?? 'none'} />
      ),
    },
    {
      key: 'actions',
      label: t('members.actions'),
      render: (member) => (
        <div className="flex flex-wrap items-center gap-2">
          <MenuButton
            label={t(`common:roles.${member.role}`)}
            ariaLabel={t('members.changeRole', { name: member.name, role: t(`common:roles.${member.role}`) })}
            disabled={isLastAdmin(member) || changeRole.isPending}
            title={isLastAdmin(member) ? t('members.lastAdmin') : undefined}
            // A menu, not a select: moving through the roles with the arrow keys changes nobody's
            // role (WCAG 2.1 SC 3.2.2); choosing one does.
            actions={roleOptions(t, `member-role-option-${member.id}`)
              .filter((option) => option.id !== member.role)
              .map((option) => ({ id: option.id, label: option.value, testid: option.testid }))}
            onAction={(role) => {
              if (!isRole(role)) return;
              changeRole.mutate(
                { sub: member.id, role },
                {
                  onSuccess: () =>
                    toast({ type: 'success', title: t('toasts.role_changed'), testid: 'toast-role-changed' }),
                  onError: (error) =>
                    error instanceof ApiError && error.status === 409
                      ? lastAdminToast()
                      : toast({ type: 'error', title: t('toasts.role_error'), testid: 'toast-role-error' }),
                },
              );
            }}
            className="min-w-32"
            testid={`member-role-select-${member.id}`}
          />
          <Button
            variant="ghost"
            size="sm"
            disabled={isLastAdmin(member)}
            title={isLastAdmin(member) ? t('members.lastAdmin') : undefined}
            aria-label={
              isSelf(member) ? t('members.leaveLabel') : t('members.removeLabel', { name: member.name })
            }
            onClick={() => setSelected(member)}
            testid={`member-remove-${member.id}`}
          >
            {isSelf(member) ? t('members.leave') : t('members.remove')}
          </Button>
          {!isSelf(member) && factorCount(member) > 0 && (
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('members.resetFactorsLabel', { name: member.name })}
              onClick={() => setResetting(member)}
              testid={`member-reset-factors-${member.id}`}
            >
              {t('members.resetFactors')}
            </Button>
          )}
        </div>
      ),
    },
  ];

  const leaving = selected !== null && isSelf(selected);
  return (
    <>
      <ClientTable
        columns={columns}
        rows={rows}
        rowKey={(member) => member.id}
        initialSort={{ key: 'name', order: 'asc' }}
        loading={members.isPending}
        emptyText={members.isError ? t('loadError') : undefined}
        label={t('members.title')}
        testid="members"
      />
      <ConfirmDialog
        open={selected !== null}
        onOpenChange={(open) => {
          if (!open) setSelected(null);
        }}
        title={leaving ? t('removeDialog.leaveTitle') : t('removeDialog.title')}
        confirmText={leaving ? t('removeDialog.leaveConfirm') : t('removeDialog.confirm')}
        onConfirm={async () => {
          if (!selected) return;
          try {
            await remove.mutateAsync(selected.id);
            if (leaving) switchCompany(null);
            else toast({ type: 'success', title: t('toasts.removed'), testid: 'toast-member-removed' });
          } catch (error) {
            if (error instanceof ApiError && error.status === 409) lastAdminToast();
            else
              toast({
                type: 'error',
                title: t('toasts.delete_error'),
                description: t('toasts.delete_error_description'),
                testid: 'toast-delete-error',
              });
          }
        }}
        testid="remove-member-dialog"
      >
        {selected && (
          <p data-testid="remove-member-text">
            {leaving
              ? t('removeDialog.leaveText', { email: selected.email })
              : t('removeDialog.text', { name: selected.name, email: selected.email })}
          </p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(open) => {
          if (!open) setResetting(null);
        }}
        title={t('resetDialog.title')}
        confirmText={t('resetDialog.confirm')}
        onConfirm={async () => {
          if (!resetting) return;
          try {
            await reset.mutateAsync(resetting.id);
            toast({ type: 'success', title: t('toasts.factorsReset'), testid: 'toast-factors-reset' });
          } catch {
            toast({
              type: 'error',
              title: t('toasts.factorsResetError'),
              testid: 'toast-factors-reset-error',
            });
          }
        }}
        testid="reset-factors-dialog"
      >
        {resetting && <p>{t('resetDialog.text', { name: resetting.name, email: resetting.email })}</p>}
      </ConfirmDialog>
    </>
  );
}

/** TOTP counts one, each passkey one: members without any sort first in ascending order. */
const factorCount = (member: Member) =>
  member.factors ? Number(member.factors.totp) + member.factors.passkeys : 0;

/** Whether the company's policy (decision 0078) asks the member with `role` for a second factor. */
const policyCovers = (policy: SecondFactorPolicy, role: Member['role']) =>
  policy === 'all' || (policy === 'admins' && role === 'admin');

/** "2FA: TOTP, 2 passkeys" or "No second factor", marked when the company requires one. */
function SecondFactors({ member, policy }: { member: Member; policy: SecondFactorPolicy }) {
  const { t } = useTranslation('team');
  const { factors } = member;
  if (!factors) return null;
  const names = [
    ...(factors.totp ? [t('factors.totp')] : []),
    ...(factors.passkeys > 0 ? [t('factors.passkeys', { count: factors.passkeys })] : []),
  ];
  if (names.length > 0)
    return (
      <span data-testid={`member-factors-${member.id}`}>{t('factors.some', { list: names.join(', ') })}</span>
    );
  const required = policyCovers(policy, member.role);
  return (
    <span
      data-testid={`member-factors-${member.id}`}
      className={required ? 'font-medium text-red-800' : 'text-stone-600'}
    >
      {t('factors.none')}
      {required && <span className="block text-sm">{t('factors.required')}</span>}
    </span>
  );
}
