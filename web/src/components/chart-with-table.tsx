/**
 * A chart with its text alternative (WCAG 1.1.1, 1.3.1): the drawing is one image named by
 * `label` — what it shows and its latest values — and a "Daten als Tabelle" button (aria-expanded)
 * reveals the same data as a real table with a caption and column headers. The caller formats
 * the cells (times in the company's zone, numbers in the UI language), so the table reads as the
 * chart's legend does.
 *
 * The table is built when first asked for (a unit's two weeks are up to a thousand rows) and then
 * kept, hidden while collapsed. `keepInDocument` builds it at once, for a short table whose text
 * should be in the page from the start (a search in the page finds the preview's steps).
 */
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './ui/cx.ts';

/** One row of the table: its first cell heads the row (a time or a day). */
export interface ChartTableRow {
  key: string;
  cells: ReactNode[];
}

export interface ChartWithTableProps {
  /** Accessible name of the drawing: what it shows and its current or latest values. */
  label: string;
  /** Caption of the table. */
  caption: string;
  /** Column headers, the first one heading the rows. */
  columns: string[];
  rows: ChartTableRow[];
  /** The drawing (a uPlot canvas or an SVG); its own parts are not announced one by one. */
  children: ReactNode;
  /** Drawn with `role="img"` itself (an SVG that names itself) instead of a wrapper that does. */
  selfLabelled?: boolean;
  /** Extra content between the drawing and the toggle (a legend). */
  between?: ReactNode;
  testid?: string;
  /** Test id of the table's body, whose text holds every row. */
  rowsTestid?: string;
  /** Build the (hidden) table before it is first opened. */
  keepInDocument?: boolean;
}

export function ChartWithTable({
  label,
  caption,
  columns,
  rows,
  children,
  selfLabelled = false,
  between,
  testid,
  rowsTestid,
  keepInDocument = false,
}: ChartWithTableProps) {
  const { t } = useTranslation('ui');
  const [open, setOpen] = useState(false);
  const [built, setBuilt] = useState(keepInDocument);
  const tableId = useId();
  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid={testid}>
      {selfLabelled ? (
        children
      ) : (
        <div role="img" aria-label={label}>
          {children}
        </div>
      )}
      {between}
      <div>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={tableId}
          onClick={() => {
            setBuilt(true);
            setOpen((was) => !was);
          }}
          className="inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          <span aria-hidden="true" className={cx('inline-block transition-transform', open && 'rotate-90')}>
            ▸
          </span>
          {t('chartData.toggle')}
        </button>
      </div>
      <div id={tableId} hidden={!open} className="max-h-96 overflow-auto rounded-lg border border-stone-200">
        {built && (
          <table className="w-full border-collapse text-sm">
            <caption className="px-3 py-2 text-left text-stone-700">{caption}</caption>
            <thead className="sticky top-0 bg-stone-50">
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col" className="px-3 py-1.5 text-left font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody data-testid={rowsTestid}>
              {rows.map((row) => (
                <tr key={row.key} className="border-t border-stone-200">
                  {row.cells.map((cell, i) =>
                    i === 0 ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the cells of a row are its columns, fixed in order.
                      <th key={i} scope="row" className="px-3 py-1 text-left font-normal tabular-nums">
                        {cell}
                      </th>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the cells of a row are its columns, fixed in order.
                      <td key={i} className="px-3 py-1 tabular-nums">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
