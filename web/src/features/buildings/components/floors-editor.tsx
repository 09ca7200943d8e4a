/**
 * The building form's floors as an editable list: one text field per floor ("EG", "1. OG"),
 * each with buttons to move it up or down and to remove it, and a button to add one. Everything
 * is reachable by Tab and labelled for screen readers ("Geschoss 2 entfernen"); after a move or a
 * removal the focus stays in the list (the moved floor's button, the next floor, or "add").
 * Messages show under their floor: the contract's (empty, too long), a name twice, the server's.
 */
import { BUILDING_FLOORS_MAX } from '@heizplan/contracts/buildings';
import { useEffect, useId, useRef, useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { controlClass } from '../../../components/ui/field.tsx';
import { useFieldError } from '../../../components/ui/form.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import type { BuildingForm } from '../building-form.ts';

/** What gets the focus once the list has re-rendered. */
type Focus = { testid: string } | null;

export function FloorsEditor() {
  const { t } = useTranslation('buildings');
  const { control } = useFormContext<BuildingForm>();
  const { fields, append, remove, move } = useFieldArray({ control, name: 'floors' });
  // Too many floors: the contract's message on the list (`root`), the server's on `floors`.
  const rootError = useFieldError('floors.root');
  const serverError = useFieldError('floors');
  const listError = rootError ?? serverError;
  const id = useId();
  const list = useRef<HTMLFieldSetElement>(null);
  const [focus, setFocus] = useState<Focus>(null);

  useEffect(() => {
    if (!focus) return;
    list.current?.querySelector<HTMLElement>(`[data-testid="${focus.testid}"]`)?.focus();
    setFocus(null);
  }, [focus]);

  const moveFloor = (from: number, to: number) => {
    move(from, to);
    // The same button of the moved floor, or the other one when it has reached an end.
    const direction = to < from ? 'up' : 'down';
    const atEnd = direction === 'up' ? to === 0 : to === fields.length - 1;
    setFocus({ testid: `building-floor-${atEnd ? (direction === 'up' ? 'down' : 'up') : direction}-${to}` });
  };
  const removeFloor = (index: number) => {
    remove(index);
    const left = fields.length - 1;
    setFocus({ testid: left === 0 ? 'building-floor-add' : `building-floor-${Math.min(index, left - 1)}` });
  };

  return (
    <fieldset
      ref={list}
      className="flex flex-col gap-2"
      aria-describedby={`${id}-hint`}
      data-testid="building-floors"
    >
      <legend className="mb-1 text-sm font-medium text-ink">{t('fields.floors')}</legend>
      <p id={`${id}-hint`} className="text-xs text-stone-600">
        {t('fields.floorsHint')}
      </p>
      {fields.length === 0 && (
        <p className="text-sm text-stone-600" data-testid="building-floors-none">
          {t('fields.floorsNone')}
        </p>
      )}
      {fields.length > 0 && (
        <ol className="flex flex-col gap-2">
          {fields.map((field, index) => (
            <FloorRow
              key={field.id}
              index={index}
              last={index === fields.length - 1}
              onMove={moveFloor}
              onRemove={removeFloor}
            />
          ))}
        </ol>
      )}
      {listError && (
        <p className="text-sm text-red-700" data-testid="building-floors-error">
          {listError}
        </p>
      )}
      {fields.length < BUILDING_FLOORS_MAX && (
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          onClick={() => append({ name: '' })}
          testid="building-floor-add"
        >
          {t('fields.addFloor')}
        </Button>
      )}
    </fieldset>
  );
}

interface FloorRowProps {
  index: number;
  last: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}

/** One floor: its name, its message, and its move and remove buttons. */
function FloorRow({ index, last, onMove, onRemove }: FloorRowProps) {
  const { t } = useTranslation('buildings');
  const { register } = useFormContext<BuildingForm>();
  const error = useFieldError(`floors.${index}.name`);
  const errorId = useId();
  const number = index + 1;
  return (
    <li className="flex flex-col gap-1">
      <div className="flex items-center gap-1">
        <span className="w-6 shrink-0 text-right text-xs text-stone-500" aria-hidden>
          {number}.
        </span>
        <input
          {...register(`floors.${index}.name`)}
          aria-label={t('fields.floorLabel', { number })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          maxLength={40}
          data-testid={`building-floor-${index}`}
          className={cx(controlClass, 'min-w-0 flex-1')}
        />
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onMove(index, index - 1)}
          disabled={index === 0}
          aria-label={t('fields.moveUp', { number })}
          testid={`building-floor-up-${index}`}
        >
          <Icon name="sortAsc" />
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onMove(index, index + 1)}
          disabled={last}
          aria-label={t('fields.moveDown', { number })}
          testid={`building-floor-down-${index}`}
        >
          <Icon name="sortDesc" />
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onRemove(index)}
          aria-label={t('fields.removeFloor', { number })}
          testid={`building-floor-remove-${index}`}
        >
          <Icon name="close" />
        </Button>
      </div>
      {error && (
        <p id={errorId} className="pl-7 text-sm text-red-700" data-testid={`building-floor-${index}-error`}>
          {error}
        </p>
      )}
    </li>
  );
}
