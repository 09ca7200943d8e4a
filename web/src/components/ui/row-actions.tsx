/**
 * A table row's actions as small text buttons, stacked on narrow screens and side by side from
 * `wideFrom` up. Each names its row in its accessible label ("Betriebsurlaub bearbeiten"), since
 * the visible "Bearbeiten" repeats on every row. Actions that are null are left out (a role that
 * may not use them).
 */
import { Button } from './button.tsx';

export interface RowAction {
  label: string;
  /** Accessible name naming the row. */
  ariaLabel: string;
  onClick: () => void;
  testid: string;
}

export function RowActions({
  actions,
  wideFrom = 'sm',
}: {
  actions: (RowAction | null)[];
  /** Tailwind breakpoint from which the buttons sit side by side. */
  wideFrom?: 'sm' | '2xl';
}) {
  return (
    <span className={`flex flex-col items-start gap-1 ${wideFrom === 'sm' ? 'sm:flex-row' : '2xl:flex-row'}`}>
      {actions.map(
        (action) =>
          action && (
            <Button
              key={action.testid}
              variant="ghost"
              size="sm"
              onClick={action.onClick}
              aria-label={action.ariaLabel}
              testid={action.testid}
            >
              {action.label}
            </Button>
          ),
      )}
    </span>
  );
}
