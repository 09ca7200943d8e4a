/**
 * The empty state of a list screen (buildings, closures, booking calendars): a heading, what the
 * list is for in a few sentences, and either the button that creates the first entry or — for a
 * member whose role may not — why there is none. Test ids: `<testid>-empty`, `<testid>-empty-new`,
 * `<testid>-read-only`.
 */
import { Button } from './button.tsx';

export interface ListEmptyStateProps {
  title: string;
  paragraphs: string[];
  /** The button that creates the first entry; absent for a member who may not create one. */
  create?: { label: string; onClick: () => void };
  /** Shown instead of the button: why the member cannot create one. */
  readOnlyText: string;
  testid: string;
}

export function ListEmptyState({ title, paragraphs, create, readOnlyText, testid }: ListEmptyStateProps) {
  return (
    <div
      className="flex flex-col items-start gap-3 rounded-xl border border-dashed border-stone-300 bg-white p-6"
      data-testid={`${testid}-empty`}
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      {paragraphs.map((text) => (
        <p key={text} className="max-w-2xl text-sm text-stone-700">
          {text}
        </p>
      ))}
      {create ? (
        <Button onClick={create.onClick} testid={`${testid}-empty-new`}>
          {create.label}
        </Button>
      ) : (
        <p className="text-sm text-stone-600" data-testid={`${testid}-read-only`}>
          {readOnlyText}
        </p>
      )}
    </div>
  );
}
