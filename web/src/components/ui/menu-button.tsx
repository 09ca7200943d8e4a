/**
 * A button that opens a short menu of actions (WAI-ARIA menu button, through Radix's dropdown
 * menu): Enter, Space or ↓ opens it, the arrow keys move between the actions, Enter runs one,
 * Escape closes it and focus returns to the button. Unlike a `<select>` whose change runs an
 * action, moving through the choices with the keyboard changes nothing (WCAG 2.1 SC 3.2.2,
 * "On Input").
 */
import { DropdownMenu } from 'radix-ui';
import { Button } from './button.tsx';
import { cx } from './cx.ts';
import { Icon } from './icon.tsx';

export interface MenuAction {
  id: string;
  label: string;
  testid: string;
}

export function MenuButton({
  label,
  ariaLabel,
  actions,
  onAction,
  className,
  disabled,
  title,
  testid,
}: {
  /** What the button shows: the current state or what it does ("Stummschalten"). */
  label: string;
  /** Accessible name when `label` alone does not say what the menu is for; it starts with `label`. */
  ariaLabel?: string;
  actions: MenuAction[];
  onAction: (id: string) => void;
  className?: string;
  /** Not offered now (the last admin's role); `title` says why. */
  disabled?: boolean;
  title?: string;
  testid: string;
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button
          variant="secondary"
          size="sm"
          aria-label={ariaLabel}
          disabled={disabled}
          title={title}
          className={cx('justify-between', className)}
          testid={testid}
        >
          <span className="truncate">{label}</span>
          <Icon name="chevronDown" className="size-4 shrink-0 text-stone-500" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-40 rounded-lg border border-stone-200 bg-white p-1 text-sm shadow-lg"
          data-testid={`${testid}-menu`}
        >
          {actions.map((action) => (
            <DropdownMenu.Item
              key={action.id}
              onSelect={() => onAction(action.id)}
              className="cursor-pointer rounded-md px-3 py-2 text-ink outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-800"
              data-testid={action.testid}
            >
              {action.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
