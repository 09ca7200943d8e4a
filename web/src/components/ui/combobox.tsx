/**
 * Combobox (spec §2, §3 option `{id, item, testid}`) for single or multiple choice, following
 * the WAI-ARIA APG "editable combobox with list autocomplete" pattern: typing filters the
 * options ignoring case and whitespace; ArrowDown/ArrowUp move through them (ArrowDown opens),
 * Enter picks, Escape closes, Backspace in an empty multi-select input removes the last choice.
 * With nothing matching, 'Keine Übereinstimmungen...' is shown.
 */
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';
import { Field } from './field.tsx';
import { Icon } from './icon.tsx';

export interface ComboboxOption {
  id: string;
  item: string;
  testid: string;
}

interface BaseProps {
  options: ComboboxOption[];
  label: string;
  placeholder?: string;
  error?: string | null;
  disabled?: boolean;
  testid?: string;
}

export type ComboboxProps = BaseProps &
  (
    | { multiple?: false; value: string | null; onChange: (id: string | null) => void }
    | { multiple: true; value: string[]; onChange: (ids: string[]) => void }
  );

/** Lower-cased text without any whitespace: 'Raum 1' and ' raum1' compare equal. */
export function normalizeForFilter(text: string): string {
  return text.toLocaleLowerCase().replace(/\s+/g, '');
}

export function filterOptions(options: ComboboxOption[], query: string): ComboboxOption[] {
  const needle = normalizeForFilter(query);
  return options.filter((option) => normalizeForFilter(option.item).includes(needle));
}

export function Combobox(props: ComboboxProps) {
  const { options, label, placeholder, error, disabled = false, testid = 'combobox' } = props;
  const { t } = useTranslation('ui');
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);

  const selectedIds = props.multiple ? props.value : props.value === null ? [] : [props.value];
  const selected = options.filter((option) => selectedIds.includes(option.id));
  const visible = filterOptions(options, query);
  const singleLabel = props.multiple ? undefined : selected[0]?.item;

  const openList = () => {
    if (disabled || open) return;
    setOpen(true);
    setQuery('');
    setActive(0);
  };
  const close = () => {
    setOpen(false);
    setQuery('');
  };
  const pick = (option: ComboboxOption) => {
    if (props.multiple) {
      props.onChange(
        props.value.includes(option.id)
          ? props.value.filter((id) => id !== option.id)
          : [...props.value, option.id],
      );
      setQuery('');
    } else {
      props.onChange(option.id);
      close();
    }
  };
  const remove = (id: string) => {
    if (props.multiple) props.onChange(props.value.filter((v) => v !== id));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) openList();
        else setActive((i) => (visible.length === 0 ? 0 : (i + 1) % visible.length));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) openList();
        else setActive((i) => (visible.length === 0 ? 0 : (i - 1 + visible.length) % visible.length));
        break;
      case 'Enter': {
        const option = visible[active];
        if (open && option) {
          event.preventDefault();
          pick(option);
        }
        break;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        }
        break;
      case 'Backspace':
        if (props.multiple && query === '' && props.value.length > 0) remove(props.value.at(-1)!);
        break;
      default:
        break;
    }
  };

  const activeOption = open ? visible[active] : undefined;
  return (
    <Field label={label} error={error} testid={`${testid}-field`}>
      {(control) => (
        <div className="relative">
          <div
            className={cx(
              'flex min-h-10 w-full flex-wrap items-center gap-1.5 rounded-lg border border-stone-300 bg-white py-1 pr-9 pl-2 focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600 hover:border-stone-400',
              disabled && 'cursor-not-allowed bg-stone-100',
              error && 'border-red-600',
            )}
          >
            {props.multiple &&
              selected.map((option) => (
                <span
                  key={option.id}
                  data-testid={`${testid}-chip-${option.id}`}
                  className="inline-flex items-center gap-1 rounded-md bg-brand-100 py-0.5 pr-1 pl-2 text-sm text-brand-700"
                >
                  {option.item}
                  <button
                    type="button"
                    tabIndex={-1}
                    disabled={disabled}
                    aria-label={t('combobox.remove', { item: option.item })}
                    onClick={() => remove(option.id)}
                    className="rounded p-0.5 hover:bg-brand-200"
                  >
                    <Icon name="close" className="size-3" />
                  </button>
                </span>
              ))}
            <input
              {...control}
              type="text"
              role="combobox"
              aria-expanded={open}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeOption ? `${listId}-${activeOption.id}` : undefined}
              autoComplete="off"
              disabled={disabled}
              data-testid={testid}
              value={open ? query : (singleLabel ?? '')}
              placeholder={(open ? singleLabel : undefined) ?? placeholder ?? t('combobox.placeholder')}
              onChange={(event) => {
                setQuery(event.target.value);
                setActive(0);
                setOpen(true);
              }}
              onClick={openList}
              onKeyDown={onKeyDown}
              onBlur={close}
              className="h-8 min-w-24 flex-1 bg-transparent px-1 text-sm text-ink outline-none placeholder:text-stone-500 disabled:cursor-not-allowed"
            />
          </div>
          <button
            type="button"
            tabIndex={-1}
            disabled={disabled}
            aria-label={t('combobox.toggle')}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => (open ? close() : openList())}
            className="absolute top-0 right-0 flex h-10 w-9 items-center justify-center text-stone-500"
          >
            <Icon name="chevronDown" />
          </button>
          <div
            id={listId}
            role="listbox"
            aria-label={label}
            aria-multiselectable={props.multiple || undefined}
            data-testid={`${testid}-listbox`}
            hidden={!open || visible.length === 0}
            className="absolute z-30 mt-1 max-h-60 w-full overflow-y-auto rounded-lg border border-stone-200 bg-white py-1 shadow-lg"
          >
            {visible.map((option, index) => {
              const isSelected = selectedIds.includes(option.id);
              return (
                // Options are reached with aria-activedescendant while focus stays in the input
                // (APG combobox pattern), so they are neither focusable nor keyboard targets.
                // biome-ignore lint/a11y/useFocusableInteractive: see above
                // biome-ignore lint/a11y/useKeyWithClickEvents: see above
                <div
                  key={option.id}
                  id={`${listId}-${option.id}`}
                  role="option"
                  aria-selected={isSelected}
                  data-testid={option.testid}
                  data-active={index === active || undefined}
                  onMouseDown={(event) => event.preventDefault() /* keep focus in the input */}
                  onClick={() => pick(option)}
                  onMouseMove={() => setActive(index)}
                  className={cx(
                    'flex cursor-pointer items-center justify-between gap-2 px-3 py-2 text-sm text-ink',
                    index === active && 'bg-brand-50',
                    isSelected && 'font-semibold text-brand-700',
                  )}
                >
                  {option.item}
                  {isSelected && <Icon name="check" />}
                </div>
              );
            })}
          </div>
          {open && visible.length === 0 && (
            <p
              role="status"
              data-testid={`${testid}-no-match`}
              className="absolute z-30 mt-1 w-full rounded-lg border border-stone-200 bg-white px-3 py-2 text-sm text-stone-600 shadow-lg"
            >
              {t('combobox.noMatch')}
            </p>
          )}
        </div>
      )}
    </Field>
  );
}
