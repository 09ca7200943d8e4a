/**
 * The company's API tokens: name with prefix (and the buildings it is limited to), role, expiry, last use and state (active, expired,
 * revoked), and revoking an active one after a confirmation. Dates in the company's zone.
 */
import type { ApiToken } from '@heizplan/contracts/api-tokens';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { formatDay, useHeatingFormat } from '../../../lib/format.ts';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useApiTokens, useRevokeApiToken } from '../api/api-tokens.ts';

type TokenState = 'active' | 'expired' | 'revoked';

const stateOf = (token: ApiToken, now: number): TokenState =>
  token.revokedAt ? 'revoked' : Date.parse(token.expiresAt) <= now ? 'expired' : 'active';

export function TokensTable() {
  const { t, i18n } = useTranslation('api-tokens');
  const { toast } = useToast();
  const format = useHeatingFormat();
  const timeZone = useCompany().data?.time_zone;
  const tokens = useApiTokens();
  const { buildings } = useAllBuildings();
  const revoke = useRevokeApiToken();
  const [selected, setSelected] = useState<ApiToken | null>(null);
  const clock = useClock();
  const now = clock().getTime();

  const columns: TableColumn<ApiToken>[] = [
    {
      key: 'name',
      label: t('table.name'),
      sortable: true,
      wrap: true,
      render: (token) => (
        <span className="flex flex-col">
          <span className="font-medium text-ink">{token.name}</span>
          <code className="text-xs text-stone-600">{token.prefix}…</code>
          {token.buildingIds && (
            <span className="text-xs text-stone-700" data-testid={`api-token-buildings-${token.id}`}>
              {t('table.buildings', {
                names: token.buildingIds
                  .map((id) => buildings.find((b) => b.id === id)?.name ?? '…')
                  .join(', '),
              })}
            </span>
          )}
          {/* On a phone the role column is hidden: it shows here instead. */}
          <span className="text-xs text-stone-700 sm:hidden">{t(`roles.${token.role}.name`)}</span>
        </span>
      ),
    },
    {
      key: 'role',
      label: t('table.role'),
      sortValue: (token) => t(`roles.${token.role}.name`),
      sortable: true,
      minScreen: 'sm',
      render: (token) => t(`roles.${token.role}.name`),
    },
    {
      key: 'expiresAt',
      label: t('table.expires'),
      sortable: true,
      minScreen: 'sm',
      render: (token) => formatDay(token.expiresAt, i18n.language, timeZone),
    },
    {
      key: 'lastUsedAt',
      label: t('table.lastUsed'),
      minScreen: 'md',
      render: (token) => (token.lastUsedAt ? format.dateTime(token.lastUsedAt, timeZone) : t('table.never')),
    },
    {
      key: 'state',
      label: t('table.state'),
      render: (token) => {
        const state = stateOf(token, now);
        return (
          <span
            className={state === 'active' ? 'text-emerald-800' : 'text-stone-600'}
            data-testid={`api-token-state-${token.id}`}
          >
            {t(`states.${state}`)}
          </span>
        );
      },
    },
    {
      key: 'actions',
      label: t('table.actions'),
      render: (token) =>
        stateOf(token, now) === 'active' ? (
          <Button
            variant="ghost"
            size="sm"
            aria-label={t('revoke.label', { name: token.name })}
            onClick={() => setSelected(token)}
            testid={`api-token-revoke-${token.id}`}
          >
            {t('revoke.button')}
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <ClientTable
        columns={columns}
        rows={tokens.data?.results ?? []}
        rowKey={(token) => token.id}
        initialSort={{ key: 'name', order: 'asc' }}
        loading={tokens.isPending}
        emptyText={tokens.isError ? t('loadError') : t('empty')}
        label={t('table.label')}
        testid="api-tokens"
      />
      <ConfirmDialog
        open={selected !== null}
        onOpenChange={(open) => {
          if (!open) setSelected(null);
        }}
        title={t('revoke.title', { name: selected?.name ?? '' })}
        confirmText={t('revoke.confirm')}
        onConfirm={async () => {
          if (!selected) return;
          try {
            await revoke.mutateAsync(selected.id);
            toast({ type: 'success', title: t('revoke.success'), testid: 'toast-api-token-revoked' });
          } catch {
            toast({ type: 'error', title: t('revoke.error'), testid: 'toast-api-token-revoke-error' });
          }
        }}
        testid="api-token-revoke-dialog"
      >
        {t('revoke.text')}
      </ConfirmDialog>
    </>
  );
}
