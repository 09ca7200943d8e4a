/**
 * The member's own alert mails: per kind at once, in a daily digest, or none. The
 * defaults follow the role (admins and heating at once, EMS a digest).
 */
import { type AlertKind, AlertKindSchema, type MailMode, MailModeSchema } from '@heizplan/contracts/alerts';
import { useTranslation } from 'react-i18next';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { usePreferences, useUpdatePreferences } from '../api/alerts.ts';

export function MailPreferences() {
  const { t } = useTranslation('alerts');
  const { toast } = useToast();
  const preferences = usePreferences();
  const update = useUpdatePreferences();
  if (preferences.isError) return <p role="alert">{t('loadError')}</p>;
  if (!preferences.data) return <Spinner loading testid="mail-loading" />;
  const current = preferences.data;
  const change = (kind: AlertKind, mode: MailMode) =>
    update.mutate(
      { [kind]: mode },
      {
        onSuccess: () => toast({ type: 'success', title: t('mail.saved'), testid: 'toast-mail-saved' }),
        onError: () => toast({ type: 'error', title: t('mail.error'), testid: 'toast-mail-error' }),
      },
    );
  return (
    <ul className="flex flex-col divide-y divide-stone-100" data-testid="mail-preferences">
      {AlertKindSchema.options.map((kind) => (
        <li key={kind} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
          <span className="text-sm text-ink" id={`mail-${kind}`}>
            {t(`kinds.${kind}`)}
          </span>
          <Select
            aria-labelledby={`mail-${kind}`}
            value={current[kind]}
            onChange={(mode) => change(kind, MailModeSchema.parse(mode))}
            options={MailModeSchema.options.map((mode) => ({
              id: mode,
              value: t(`mail.modes.${mode}`),
              testid: `mail-${kind}-${mode}`,
            }))}
            className="sm:w-56"
            testid={`mail-${kind}`}
          />
        </li>
      ))}
    </ul>
  );
}
