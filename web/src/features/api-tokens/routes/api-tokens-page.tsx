/**
 * Settings → API access (decision 0058; admins): what API tokens are for, the list and a new one.
 * Members without `manage` do not get this tab; opened directly, the page says so.
 */
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/use-can.ts';
import { CreateTokenDialog } from '../components/create-token-dialog.tsx';
import { TokensTable } from '../components/tokens-table.tsx';

export function ApiTokensPage() {
  const { t } = useTranslation('api-tokens');
  const canManage = useCan('manage');
  if (!canManage)
    return (
      <p className="text-sm text-stone-700" data-testid="api-tokens-forbidden">
        {t('forbidden')}
      </p>
    );
  return (
    <section className="flex flex-col gap-4" aria-labelledby="api-tokens-title" data-testid="api-tokens-page">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex max-w-xl flex-col gap-1">
          <h2 id="api-tokens-title" className="text-lg font-semibold">
            {t('title')}
          </h2>
          <p className="text-sm text-stone-700">{t('intro')}</p>
        </div>
        <CreateTokenDialog />
      </div>
      <TokensTable />
    </section>
  );
}
