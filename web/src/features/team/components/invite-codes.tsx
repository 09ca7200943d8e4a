/**
 * Invite codes (spec §2 team, §3 "Invite", §4): shown only to members who may create codes.
 * "Create code" makes a code to hand over (with the chosen role when the company has the role
 * choice on). Open invites list the code blurred behind a placeholder until clicked — only one
 * revealed at a time — and the email, or 'no Email' for a code without one. A code can be
 * withdrawn; a failed withdrawal is only logged (spec §4).
 */
import type { Company, Invite, Role } from '@heizplan/contracts/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { isRole, roleOptions } from '../../../lib/roles.ts';
import { useCreateInvite, useDeleteInvite, useInvites } from '../api/invites.ts';

/** Shown blurred instead of a hidden code, so the real code never sits in the page unrevealed. */
const PLACEHOLDER = 'XXXXXXXX-XXXXXXXX-XXXXXXXX';

function InviteRow({
  invite,
  revealed,
  onToggle,
}: {
  invite: Invite;
  revealed: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation('team');
  const withdraw = useDeleteInvite();
  return (
    <li
      className="flex flex-col gap-2 border-b border-stone-200 py-3 last:border-b-0 sm:flex-row sm:items-center"
      data-testid={`invite-${invite.id}`}
    >
      <button
        type="button"
        onClick={onToggle}
        aria-pressed={revealed}
        // Shown, the code is the button's text: its name starts with it (WCAG 2.5.3 "Label in Name").
        // Hidden, the button's visible text "Code anzeigen" is its name.
        aria-label={revealed ? `${invite.id} – ${t('codes.hide')}` : undefined}
        className="min-w-0 flex-1 rounded-md px-2 py-1 text-left font-mono text-sm hover:bg-stone-100"
        data-testid="invite-code"
      >
        {revealed ? (
          <span className="break-all text-ink select-all" data-testid="invite-code-value">
            {invite.id}
          </span>
        ) : (
          <span className="flex flex-wrap items-center gap-x-3">
            {/* The blurred placeholder is drawn by CSS, not text: a speech-input user says what the
                button says in words ("Code anzeigen", WCAG 2.5.3), not the unreadable blur. */}
            <span
              className="blur-sm select-none text-stone-700 before:content-[attr(data-placeholder)]"
              aria-hidden="true"
              data-placeholder={PLACEHOLDER}
              data-testid="invite-code-hidden"
            />
            <span className="font-sans text-brand-700">{t('codes.reveal')}</span>
          </span>
        )}
      </button>
      <span className="text-sm text-stone-700 sm:w-56 sm:truncate" data-testid="invite-row-email">
        {invite.email ?? t('codes.noEmail')}
      </span>
      {invite.role && (
        <span className="text-sm text-stone-700 sm:w-32">{t(`common:roles.${invite.role}`)}</span>
      )}
      <Button
        variant="ghost"
        size="sm"
        loading={withdraw.isPending}
        aria-label={t('codes.withdrawLabel', { email: invite.email ?? t('codes.noEmail') })}
        onClick={() =>
          withdraw.mutate(invite.id, {
            // Spec §4: a failed invite-code deletion is only logged.
            onError: (error) => console.info('withdrawing the invite failed', error),
          })
        }
        testid="invite-withdraw"
      >
        {t('codes.withdraw')}
      </Button>
    </li>
  );
}

export function InviteCodes({ company }: { company: Company }) {
  const { t } = useTranslation('team');
  const { toast } = useToast();
  const invites = useInvites();
  const create = useCreateInvite();
  const [role, setRole] = useState<Role>(company.default_invite_role);
  const [revealed, setRevealed] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        {company.invite_role_choice && (
          <div className="sm:w-48">
            <Field label={t('codes.role')} testid="code-role-field">
              {(control) => (
                <Select
                  {...control}
                  value={role}
                  onChange={(next) => isRole(next) && setRole(next)}
                  options={roleOptions(t, 'code-role')}
                  testid="code-role"
                />
              )}
            </Field>
          </div>
        )}
        <Button
          variant="secondary"
          loading={create.isPending}
          onClick={() =>
            create.mutate(company.invite_role_choice ? { role } : {}, {
              onSuccess: (invite) => {
                setRevealed(invite.id);
                toast({ type: 'success', title: t('toasts.code_created'), testid: 'toast-code-created' });
              },
              onError: () =>
                toast({ type: 'error', title: t('toasts.code_error'), testid: 'toast-code-error' }),
            })
          }
          testid="invite-code-create"
        >
          {t('codes.create')}
        </Button>
      </div>
      {invites.isPending ? (
        <Spinner loading testid="invites-loading" />
      ) : invites.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {t('loadError')}
        </p>
      ) : invites.data.length === 0 ? (
        <p className="text-sm text-stone-600" data-testid="invites-empty">
          {t('codes.empty')}
        </p>
      ) : (
        <ul aria-label={t('codes.list')} data-testid="invites">
          {invites.data.map((invite) => (
            <InviteRow
              key={invite.id}
              invite={invite}
              revealed={revealed === invite.id}
              onToggle={() => setRevealed((current) => (current === invite.id ? null : invite.id))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
