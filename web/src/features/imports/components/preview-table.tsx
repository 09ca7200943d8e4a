/**
 * The first rows of an import file under its column names; scrolls sideways inside its own box on
 * a phone, so the page itself keeps the screen's width.
 */
import type { ImportPreview } from '@heizplan/contracts/imports';

export function PreviewTable({ preview, caption }: { preview: ImportPreview; caption: string }) {
  return (
    <div
      className="max-w-full overflow-x-auto rounded-lg border border-stone-200"
      data-testid="import-preview"
    >
      <table className="min-w-full text-left text-xs">
        <caption className="px-3 py-2 text-left text-xs text-stone-600">{caption}</caption>
        <thead className="bg-stone-50">
          <tr>
            {preview.columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: headers may repeat or be empty
              <th key={i} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold text-ink">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
            <tr key={r} className="border-t border-stone-100">
              {row.map((cell, c) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                <td key={c} className="max-w-48 truncate whitespace-nowrap px-3 py-1.5 text-stone-700">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
