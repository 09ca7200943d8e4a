/**
 * Settings → billing, invoices (spec §2): date, number, net amount, payment status and
 * the PDF, newest first, on the UI kit's table.
 */
import type { Invoice } from '@heizplan/contracts/billing';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { openInvoicePdf, useInvoices } from '../api/billing.ts';
import { useDay, useMoney } from '../format.ts';

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
      render: (invoice) => day(invoice.issuedAt),
    },
    { key: 'number', label: t('invoices.number'), sortable: true },
    {
      key: 'netAmount',
      label: t('invoices.amount'),
      align: 'right',
      render: (invoice) => money(invoice.netAmount, invoice.currency),
    },
    {
      key: 'status',
      label: t('invoices.status'),
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
