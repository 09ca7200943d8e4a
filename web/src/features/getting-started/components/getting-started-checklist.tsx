/**
 * The getting-started checklist of a company that is not set up yet: the seven steps from an
 * empty company to heated rooms as an ordered list, each a link to the screen where it is done
 * and its state in words ("Erledigt"/"Offen"), ticked from what the server says the company has.
 * Progress reads "3 von 7 erledigt". Without billing the server leaves the licence step out, and
 * the list counts what it gets.
 *
 * Shown only to members who can act on it (operate: admin and heating); a step whose screen the
 * member's role cannot use (billing is for admins) shows without a link. Once every step is done
 * it disappears, unless `always` (the help screen shows it on request).
 */
import type { GettingStarted, GettingStartedStepId } from '@heizplan/contracts/getting-started';
import type { Capability } from '@heizplan/contracts/permissions';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/icon.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useCan, useCurrentCompanyId } from '../../../lib/use-can.ts';
import { useGettingStarted } from '../api/getting-started.ts';

/**
 * Where each step is done and what the screen asks of the role. The network server is set up on
 * the devices screen: it exports the devices for The Things Stack and ChirpStack.
 */
const STEP_SCREENS: Record<GettingStartedStepId, { to: string; capability: Capability }> = {
  building: { to: '/buildings', capability: 'operate' },
  units: { to: '/units', capability: 'operate' },
  plan: { to: '/groups', capability: 'operate' },
  licences: { to: '/settings/billing', capability: 'manage' },
  uplinks: { to: '/devices', capability: 'operate' },
  devices: { to: '/devices', capability: 'operate' },
  qr_codes: { to: '/units/qr-sheet', capability: 'operate' },
};

const linkClass = 'font-medium text-brand-700 underline-offset-2 hover:underline';

function LastUplink({ at }: { at: string | null }) {
  const { t, i18n } = useTranslation('getting-started');
  const timeZone = useCompany().data?.time_zone;
  const when = at ? formatDateTime(at, i18n.language, { timeZone }) : t('steps.uplinks.never');
  return <p className="mt-1 text-sm text-ink">{t('steps.uplinks.last', { when })}</p>;
}

function Steps({ checklist }: { checklist: GettingStarted }) {
  const { t } = useTranslation('getting-started');
  const may: Record<Capability, boolean> = {
    read: true,
    operate: useCan('operate'),
    manage: useCan('manage'),
  };
  return (
    <ol className="mt-4 flex list-decimal flex-col divide-y divide-stone-100 pl-5">
      {checklist.steps.map(({ id, done }) => {
        const screen = STEP_SCREENS[id];
        const title = t(`steps.${id}.title`);
        const reachable = may[screen.capability];
        return (
          <li key={id} className="py-3 pl-1 marker:text-stone-500">
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
              <div className="min-w-0 flex-1">
                {reachable ? (
                  <Link to={screen.to} className={linkClass}>
                    {title}
                  </Link>
                ) : (
                  <span className="font-medium text-ink">{title}</span>
                )}
                <p className="mt-0.5 text-sm text-stone-600">{t(`steps.${id}.text`)}</p>
                {id === 'uplinks' && <LastUplink at={checklist.lastUplinkAt} />}
                {!reachable && <p className="mt-1 text-sm text-stone-600">{t('adminOnly')}</p>}
              </div>
              <span
                className={
                  done
                    ? 'inline-flex items-center gap-1 rounded bg-emerald-50 px-2 py-0.5 text-sm font-medium text-emerald-800'
                    : 'inline-flex items-center rounded bg-stone-100 px-2 py-0.5 text-sm text-stone-700'
                }
              >
                {done && <Icon name="check" />}
                {done ? t('done') : t('open')}
              </span>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

export function GettingStartedChecklist({ always = false }: { always?: boolean }) {
  const { t } = useTranslation('getting-started');
  const headingId = useId();
  const canOperate = useCan('operate');
  const checklist = useGettingStarted(useCurrentCompanyId(), canOperate);
  if (!canOperate) return null;
  const data = checklist.data;
  const done = data?.steps.filter((step) => step.done).length ?? 0;
  const total = data?.steps.length ?? 0;
  // On the start screen nothing shows until the answer is there: a company that is set up would
  // otherwise see a card flash up and go on every visit.
  if (!always && (checklist.isPending || (data && done === total))) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-brand-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          {t('title')}
        </h2>
        {data && <p className="text-sm font-medium text-stone-700">{t('progress', { done, total })}</p>}
      </div>
      {checklist.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {t('loadError')}
        </p>
      ) : data ? (
        <>
          <p className="mt-1 text-sm text-stone-600">{t('intro')}</p>
          <Steps checklist={data} />
        </>
      ) : (
        <div className="mt-4">
          <Spinner loading />
        </div>
      )}
    </section>
  );
}
