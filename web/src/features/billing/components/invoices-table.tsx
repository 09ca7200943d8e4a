/**
 * Settings → billing, invoices (spec §2): date, number, net amount, payment status and
 * the PDF, newest first, on the UI kit's table. On a phone the number stands under the date and
 * the status under the amount, so the table fits without scrolling sideways.
 */
import type { Invoice } from '@heizplan/contracts/billing';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { openInvoicePdf, useInvoices } from '../api/billing.ts';
import { useDay, useMoney } from '../format.ts';

/** A second line in a cell, for a column left out below the `sm` breakpoint. */
const phoneOnly = 'block text-xs text-stone-600 sm:hidden';

export function InvoicesTable() {
  const { t } = useTranslation('billing');
  const money = useMoney();
  const day = useDay();
  const { toast } = useToast();
  const invoices = useInvoices();
  const columns: TableColumn<Invoice>[] = [
    {
      key: 'issuedAt',
      label: t('invoices.date'),
      sortable: true,
      render: (invoice) => (
        <>
          {day(invoice.issuedAt)}
          <span className={phoneOnly}>{invoice.number}</span>
        </>
      ),
    },
    { key: 'number', label: t('invoices.number'), sortable: true, minScreen: 'sm' },
    {
      key: 'netAmount',
      label: t('invoices.amount'),
      align: 'right',
      wrap: true,
      render: (invoice) => (
        <>
          {money(invoice.netAmount, invoice.currency)}
          <span className={phoneOnly}>{t(`invoices.statuses.${invoice.status}`)}</span>
        </>
      ),
    },
    {
      key: 'status',
      label: t('invoices.status'),
      minScreen: 'sm',
      render: (invoice) => t(`invoices.statuses.${invoice.status}`),
    },
    {
      key: 'pdf',
      label: t('invoices.pdf'),
      render: (invoice) =>
        invoice.pdfUrl ? (
          <Button
            variant="ghost"
            size="sm"
            aria-label={t('invoices.download', { number: invoice.number })}
            onClick={() =>
              void openInvoicePdf(invoice).catch(() =>
                toast({ type: 'error', title: t('invoices.downloadError'), testid: 'toast-invoice-error' }),
              )
            }
            testid={`invoice-pdf-${invoice.number}`}
          >
            {t('invoices.pdf')}
          </Button>
        ) : null,
    },
  ];
  return (
    <ClientTable
      columns={columns}
      rows={invoices.data ?? []}
      rowKey={(invoice) => invoice.id}
      initialSort={{ key: 'issuedAt', order: 'desc' }}
      loading={invoices.isPending}
      emptyText={invoices.isError ? t('page.loadError') : t('invoices.empty')}
      label={t('invoices.title')}
      testid="invoices"
    />
  );
}
