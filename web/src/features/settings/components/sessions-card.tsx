/**
 * Sign-in sessions (decision 0074): where the account is signed in — browser and operating
 * system, signed in and last active — with "this session" marked; each other one can be ended,
 * or all others at once after a confirmation. Hidden when the server answers 409 (an external
 * issuer owns sign-in) or has no account store (503).
 */
import type { Session } from '@heizplan/contracts/sessions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useEndOtherSessions, useEndSession, useSessions } from '../../../lib/account/sessions.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

export function SessionsCard() {
  const { t } = useTranslation('settings');
  const sessions = useSessions();
  const problems = useProblemMessage();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState<string>();
  if (sessions.error instanceof ApiError && (sessions.error.status === 409 || sessions.error.status === 503))
    return null;
  const others = sessions.data?.results.filter((s) => !s.current).length ?? 0;
  return (
    <SettingsCard title={t('sessions.title')} description={t('sessions.text')} testid="settings-sessions">
      {sessions.data ? (
        <div className="flex flex-col gap-3">
          <ul aria-label={t('sessions.listLabel')} className="flex flex-col divide-y divide-stone-200">
            {sessions.data.results.map((session) => (
              <SessionItem key={session.id} session={session} onFailed={setFailed} />
            ))}
          </ul>
          {failed && (
            <p role="alert" className="text-sm text-red-700">
              {failed}
            </p>
          )}
          {others > 0 && (
            <Button
              variant="secondary"
              className="self-end"
              onClick={() => setConfirming(true)}
              testid="sessions-end-others"
            >
              {t('sessions.endOthers')}
            </Button>
          )}
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t('sessions.endOthersTitle')}
            confirmText={t('sessions.endOthers')}
            onConfirm={() =>
              endOthers.mutateAsync(undefined, {
                onSuccess: () => setFailed(undefined),
                onError: (error) => setFailed(problems.message(error)),
              })
            }
            testid="sessions-end-others-dialog"
          >
            <p className="text-sm text-stone-700">{t('sessions.endOthersText', { count: others })}</p>
          </ConfirmDialog>
        </div>
      ) : (
        <Spinner loading={sessions.isPending} />
      )}
    </SettingsCard>
  );
}

function SessionItem({ session, onFailed }: { session: Session; onFailed: (message?: string) => void }) {
  const { t, i18n } = useTranslation('settings');
  const problems = useProblemMessage();
  const end = useEndSession();
  const when = (at: string) => formatDateTime(at, i18n.language);
  const name = t('sessions.device', {
    browser: session.browser || t('sessions.unknownBrowser'),
    os: session.os || t('sessions.unknownOs'),
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div className="text-sm">
        <p className="font-medium text-stone-900">
          {name}
          {session.current && (
            <span className="ml-2 rounded bg-green-50 px-1.5 py-0.5 text-xs font-medium text-green-800">
              {t('sessions.current')}
            </span>
          )}
        </p>
        <p className="text-stone-700">
          {t('sessions.times', { signedIn: when(session.created_at), lastUsed: when(session.last_used_at) })}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          loading={end.isPending}
          aria-label={t('sessions.endNamed', { name })}
          onClick={() =>
            end.mutate(session.id, {
              onSuccess: () => onFailed(undefined),
              onError: (error) => onFailed(problems.message(error)),
            })
          }
          testid="session-end"
        >
          {t('sessions.end')}
        </Button>
      )}
    </li>
  );
}
