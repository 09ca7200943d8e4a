/**
 * The rooms list's bulk actions (spec §2 "Units screen"): once units are selected, a bar says how
 * many ("12 ausgewählt"), offers limits, group, QR access and delete for them, and clears the
 * selection. Each action opens its dialog (`unit-bulk-dialogs.tsx`, its own chunk, fetched when a
 * button is pointed at or focused). The bar wraps onto several lines on a phone (375 px).
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import type { UnitBulkKind } from './unit-bulk-dialogs.tsx';
import type { UnitSelection } from './unit-selection.ts';

const loadDialogs = () => import('./unit-bulk-dialogs.tsx');
const UnitBulkDialog = lazy(loadDialogs);

const ACTIONS: { kind: UnitBulkKind; variant: 'secondary' | 'danger' }[] = [
  { kind: 'limits', variant: 'secondary' },
  { kind: 'group', variant: 'secondary' },
  { kind: 'qrCode', variant: 'secondary' },
  { kind: 'delete', variant: 'danger' },
];

export function UnitBulkBar({ selection }: { selection: UnitSelection }) {
  const { t } = useTranslation('units');
  const [open, setOpen] = useState<UnitBulkKind | null>(null);
  const preload = () => void loadDialogs();
  return (
    <>
      {selection.count > 0 && (
        <section
          aria-label={t('bulk.bar')}
          className="flex flex-wrap items-center gap-2 rounded-xl border border-brand-200 bg-brand-50 p-2 sm:p-3"
          data-testid="units-bulk-bar"
        >
          <p className="mr-auto text-sm font-medium text-ink" data-testid="units-bulk-count">
            {t('bulk.selected', { count: selection.count })}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            {ACTIONS.map(({ kind, variant }) => (
              <Button
                key={kind}
                size="sm"
                variant={variant}
                aria-haspopup="dialog"
                onClick={() => setOpen(kind)}
                onPointerEnter={preload}
                onFocus={preload}
                testid={`units-bulk-${kind}`}
              >
                {t(`bulk.actions.${kind}`)}
              </Button>
            ))}
            <Button size="sm" variant="ghost" onClick={selection.clear} testid="units-bulk-clear">
              {t('bulk.clear')}
            </Button>
          </div>
        </section>
      )}
      {/* Polite announcement of the count for screen readers, also when the bar goes away. */}
      <p className="sr-only" aria-live="polite">
        {selection.count > 0 ? t('bulk.selected', { count: selection.count }) : ''}
      </p>
      {open && (
        <Suspense fallback={null}>
          <UnitBulkDialog
            kind={open}
            unitIds={selection.ids}
            onClose={() => setOpen(null)}
            onDone={() => {
              setOpen(null);
              selection.clear();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
