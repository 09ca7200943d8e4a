/**
 * `/units/qr-sheet`: every enabled QR code of the company as a printable sheet — one
 * card per unit with the code, the unit's name and the short URL, ready to cut out and stick on
 * doors. Printing shows only the cards (A4, three per row); the screen shows how to get there.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useQrCodes } from '../api/qr-codes.ts';
import { QrImage } from '../components/qr-image.tsx';

/** Print only the sheet: hide the app shell around it. */
const PRINT_CSS = `@media print {
  @page { size: A4; margin: 12mm; }
  body * { visibility: hidden; }
  [data-print-sheet], [data-print-sheet] * { visibility: visible; }
  [data-print-sheet] { position: absolute; inset: 0 auto auto 0; width: 100%; }
}`;

export function QrSheetPage() {
  const { t } = useTranslation('qr');
  usePageTitle(t('sheet.title'));
  const codes = useQrCodes();
  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-4 sm:p-6">
      <style>{PRINT_CSS}</style>
      <Link to="/units" className="text-sm text-brand-700 hover:underline">
        ← {t('sheet.back')}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('sheet.title')}</h1>
        <Button onClick={() => window.print()} disabled={!codes.data?.results.length} testid="qr-sheet-print">
          {t('sheet.print')}
        </Button>
      </div>
      {codes.isPending ? (
        <Spinner loading size="lg" testid="qr-sheet-loading" />
      ) : codes.isError ? (
        <div role="alert" className="flex items-center gap-3 rounded-lg bg-red-50 p-4 text-red-800">
          {t('loadError')}
          <Button variant="secondary" size="sm" onClick={() => void codes.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : codes.data.results.length === 0 ? (
        <p
          className="rounded-xl border border-dashed border-stone-300 bg-white p-10 text-center text-stone-600"
          data-testid="qr-sheet-empty"
        >
          {t('sheet.empty')}
        </p>
      ) : (
        <>
          <p className="text-stone-600">{t('sheet.hint', { count: codes.data.results.length })}</p>
          <ul
            data-print-sheet
            className="grid grid-cols-2 gap-4 sm:grid-cols-3 print:grid-cols-3"
            data-testid="qr-sheet"
          >
            {codes.data.results.map((code) => (
              <li
                key={code.unitId}
                className="break-inside-avoid rounded-lg border border-dashed border-stone-300 bg-white p-2"
              >
                <QrImage
                  url={code.url}
                  name={code.unitName}
                  className="w-full"
                  testid={`qr-sheet-${code.unitId}`}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
