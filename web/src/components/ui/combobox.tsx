/**
 * Combobox (spec §2, §3 option `{id, item, testid}`) for single or multiple choice, following
 * the WAI-ARIA APG "editable combobox with list autocomplete" pattern: typing filters the
 * options ignoring case and whitespace; ArrowDown/ArrowUp move through them (ArrowDown opens),
 * Enter picks, Escape closes, Backspace in an empty multi-select input removes the last choice.
 * With nothing matching, 'Keine Übereinstimmungen...' is shown. A single choice may offer to
 * create what was typed (`create`) when no option is called that. `onQueryChange` hears the typed
 * text, so a caller can fetch the options that match it from the server (thousands of units).
 *
 * The list opens below the input, or above it when there is more room there, and is never
 * taller than that room: inside a dialog (or any other scrolling frame) it stays within the
 * frame's visible edges instead of being cut off or making the frame scroll.
 */
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
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
  /** A choice is needed (announced as required; the form's schema still decides). */
  required?: boolean;
  /** A line under the input that describes it, linked to it for screen readers. */
  hint?: string;
  /** The label is for screen readers only (a filter row whose other filters show none). */
  labelHidden?: boolean;
  testid?: string;
  /** The typed text as it changes ('' when the list closes), for options searched on the server. */
  onQueryChange?: (query: string) => void;
}

/** Offering to create a new entry from the typed text (single choice only). */
export interface ComboboxCreate {
  /** The option's text for the typed (trimmed) text, e.g. 'Gruppe „Etage 3“ anlegen'. */
  label: (text: string) => string;
  onCreate: (text: string) => void;
  testid: string;
}

export type ComboboxProps = BaseProps &
  (
    | {
        multiple?: false;
        value: string | null;
        onChange: (id: string | null) => void;
        create?: ComboboxCreate;
      }
    | { multiple: true; value: string[]; onChange: (ids: string[]) => void; create?: undefined }
  );

/** The list's usual height (Tailwind max-h-60) and its distance to the input. */
const LIST_HEIGHT = 240;
const MIN_HEIGHT = 88;
const GAP = 4;

/** The visible part of the viewport and of every scrolling or clipping frame around `element`. */
function visibleFrame(element: HTMLElement): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(parent).overflowY)) {
      const rect = parent.getBoundingClientRect();
      top = Math.max(top, rect.top);
      bottom = Math.min(bottom, rect.bottom);
    }
  }
  return { top, bottom };
}

/** Where the list fits: below unless above has more room, at most as tall as that room. */
function placeList(anchor: HTMLElement): { above: boolean; maxHeight: number } {
  const rect = anchor.getBoundingClientRect();
  const frame = visibleFrame(anchor);
  const below = frame.bottom - rect.bottom - GAP;
  const above = rect.top - frame.top - GAP;
  // Nothing measured (no layout, e.g. in tests): the usual list below.
  if (rect.height === 0) return { above: false, maxHeight: LIST_HEIGHT };
  // Room for two options at least, even where the frame has less.
  if (below >= LIST_HEIGHT || below >= above)
    return { above: false, maxHeight: Math.max(MIN_HEIGHT, Math.min(LIST_HEIGHT, below)) };
  return { above: true, maxHeight: Math.max(MIN_HEIGHT, Math.min(LIST_HEIGHT, above)) };
}

const CREATE_ID = '__create__';

/** Lower-cased text without any whitespace: 'Raum 1' and ' raum1' compare equal. */
export function normalizeForFilter(text: string): string {
  return text.toLocaleLowerCase().replace(/\s+/g, '');
}

export function filterOptions(options: ComboboxOption[], query: string): ComboboxOption[] {
  const needle = normalizeForFilter(query);
  return options.filter((option) => normalizeForFilter(option.item).includes(needle));
}

export function Combobox(props: ComboboxProps) {
  const {
    options,
    label,
    placeholder,
    error,
    disabled = false,
    required,
    hint,
    labelHidden,
    testid = 'combobox',
    onQueryChange,
  } = props;
  const { t } = useTranslation('ui');
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQueryText] = useState('');
  const setQuery = (text: string) => {
    setQueryText(text);
    onQueryChange?.(text);
  };
  const [active, setActive] = useState(0);
  const anchor = useRef<HTMLDivElement>(null);
  const [placement, setPlacement] = useState({ above: false, maxHeight: LIST_HEIGHT });

  const selectedIds = props.multiple ? props.value : props.value === null ? [] : [props.value];
  const selected = options.filter((option) => selectedIds.includes(option.id));
  const typed = query.trim();
  // Offered only for a name no option has (ignoring case and spaces, as the filter does).
  const creatable =
    props.create &&
    typed !== '' &&
    !options.some((o) => normalizeForFilter(o.item) === normalizeForFilter(typed));
  const visible = [
    ...filterOptions(options, query),
    ...(creatable && props.create
      ? [{ id: CREATE_ID, item: props.create.label(typed), testid: props.create.testid }]
      : []),
  ];
  const singleLabel = props.multiple ? undefined : selected[0]?.item;

  // Measured as the list opens and as it grows with typing, before the browser paints it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measured when the list opens or changes length
  useLayoutEffect(() => {
    if (open && anchor.current) setPlacement(placeList(anchor.current));
  }, [open, visible.length]);

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
    if (option.id === CREATE_ID) {
      props.create?.onCreate(typed);
      close();
    } else if (props.multiple) {
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
    <Field label={label} error={error} hint={hint} labelHidden={labelHidden} testid={`${testid}-field`}>
      {(control) => (
        <div className="relative" ref={anchor}>
          <div
            data-testid={`${testid}-control`}
            className={cx(
              'flex min-h-10 w-full flex-wrap items-center gap-1.5 rounded-lg border border-stone-500 bg-white py-1 pr-9 pl-2 focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600 hover:border-stone-600',
              // Disabled by its own prop or by a disabled fieldset around it: greyed, no pointer.
              // Its border as controlClass's: 3:1 and more against the page, light when disabled.
              'has-[input:disabled]:cursor-not-allowed has-[input:disabled]:border-stone-300 has-[input:disabled]:bg-stone-100 has-[input:disabled]:hover:border-stone-300',
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
              aria-required={required || undefined}
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
              className="h-8 min-w-24 flex-1 bg-transparent px-1 text-sm text-ink outline-none placeholder:text-stone-500 disabled:cursor-not-allowed disabled:text-stone-500"
            />
          </div>
          <button
            type="button"
            tabIndex={-1}
            disabled={disabled}
            aria-label={t('combobox.toggle')}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => (open ? close() : openList())}
            className="absolute top-0 right-0 flex h-10 w-9 items-center justify-center text-stone-500 disabled:cursor-not-allowed"
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
            data-placement={placement.above ? 'above' : 'below'}
            style={{ maxHeight: placement.maxHeight }}
            className={cx(
              'absolute z-30 w-full overflow-y-auto rounded-lg border border-stone-200 bg-white py-1 shadow-lg',
              placement.above ? 'bottom-full mb-1' : 'mt-1',
            )}
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
