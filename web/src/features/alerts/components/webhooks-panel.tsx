/**
 * The company's webhooks (admins only, decision 0022): add an https:// address and
 * see its signing secret once (with a copy button), switch an endpoint on and off, remove it, and read the last
 * 7 days of deliveries with status, attempts and the receiver's answer.
 */
import { type Webhook, WebhookCreateSchema, type WebhookDelivery } from '@heizplan/contracts/alerts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { applyServerErrors, Form, FormTextInput, useContractForm } from '../../../components/ui/form.tsx';
import { SecretValue } from '../../../components/ui/secret-value.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useAlertText } from '../alert-text.ts';
import { useDeliveries, useWebhookChanges, useWebhooks } from '../api/alerts.ts';

function AddWebhook() {
  const { t } = useTranslation('alerts');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const { create } = useWebhookChanges();
  const form = useContractForm(WebhookCreateSchema, { defaultValues: { url: '' } });
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <Form
        form={form}
        onSubmit={({ url }) =>
          create.mutate(url, {
            onSuccess: (created) => {
              form.reset();
              setSecret(created.secret);
              toast({ type: 'success', title: t('webhooks.added'), testid: 'toast-webhook-added' });
            },
            // The server's reason (https only, a private address) shows under the address.
            onError: (error) => applyServerErrors(form, error, problems, { restOn: 'url' }),
          })
        }
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <div className="flex-1">
          <FormTextInput name="url" label={t('webhooks.url')} type="url" required testid="webhook-url" />
        </div>
        <Button type="submit" className="sm:mt-6" loading={create.isPending} testid="webhook-add">
          {t('webhooks.add')}
        </Button>
      </Form>
      <Dialog
        open={secret !== null}
        onOpenChange={(open) => {
          if (!open) setSecret(null);
        }}
        title={t('webhooks.secretTitle')}
        description={t('webhooks.secretText')}
        testid="webhook-secret"
      >
        {secret !== null && <SecretValue secret={secret} testid="webhook-secret" />}
      </Dialog>
    </>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation('alerts');
  const text = useAlertText();
  const deliveries = useDeliveries(webhook.id);
  if (deliveries.isError) return <p role="alert">{t('loadError')}</p>;
  return (
    <ClientTable<WebhookDelivery>
      label={t('webhooks.deliveries')}
      loading={deliveries.isPending}
      rows={deliveries.data ?? []}
      rowKey={(delivery) => delivery.id}
      emptyText={t('webhooks.log.empty')}
      testid={`webhook-deliveries-${webhook.id}`}
      columns={[
        {
          key: 'createdAt',
          label: t('webhooks.log.at'),
          sortable: true,
          render: (d) => text.time(d.createdAt),
        },
        {
          key: 'event',
          label: t('webhooks.log.event'),
          render: (d) => <code className="text-xs">{d.event}</code>,
        },
        {
          key: 'status',
          label: t('webhooks.log.status'),
          render: (d) => t(`webhooks.log.statuses.${d.status}`),
        },
        { key: 'attempts', label: t('webhooks.log.attempts'), align: 'right', minScreen: 'sm' },
        {
          key: 'lastStatusCode',
          label: t('webhooks.log.code'),
          wrap: true,
          minScreen: 'md',
          render: (d) => d.lastStatusCode ?? d.lastError ?? '—',
        },
      ]}
    />
  );
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation('alerts');
  const { toast } = useToast();
  const { toggle, remove } = useWebhookChanges();
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  return (
    <li className="flex flex-col gap-3 py-4" data-testid={`webhook-${webhook.id}`}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm text-ink">{webhook.url}</p>
          <p className="text-xs text-stone-700">
            {t('webhooks.counts', { delivered: webhook.delivered, failing: webhook.failing })}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-brand-600"
              checked={webhook.enabled}
              disabled={toggle.isPending}
              onChange={(event) => toggle.mutate({ id: webhook.id, enabled: event.target.checked })}
              data-testid={`webhook-enabled-${webhook.id}`}
            />
            {t('webhooks.enabled')}
          </label>
          <Button
            size="sm"
            variant="secondary"
            aria-expanded={showLog}
            onClick={() => setShowLog((shown) => !shown)}
            testid={`webhook-log-${webhook.id}`}
          >
            {t('webhooks.deliveries')}
          </Button>
          <Button
            size="sm"
            variant="danger"
            aria-label={t('webhooks.deleteLabel', { url: webhook.url })}
            onClick={() => setConfirming(true)}
            testid={`webhook-delete-${webhook.id}`}
          >
            {t('webhooks.delete')}
          </Button>
        </div>
      </div>
      {showLog && <Deliveries webhook={webhook} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('webhooks.delete')}
        confirmText={t('webhooks.delete')}
        onConfirm={() =>
          remove
            .mutateAsync(webhook.id)
            .then(() =>
              toast({ type: 'success', title: t('webhooks.deleted'), testid: 'toast-webhook-deleted' }),
            )
        }
        testid={`webhook-delete-dialog-${webhook.id}`}
      >
        <p className="break-all">{webhook.url}</p>
      </ConfirmDialog>
    </li>
  );
}

export function WebhooksPanel() {
  const { t } = useTranslation('alerts');
  const webhooks = useWebhooks();
  return (
    <div className="flex flex-col gap-4">
      <AddWebhook />
      {webhooks.isError ? (
        <p role="alert">{t('loadError')}</p>
      ) : !webhooks.data ? (
        <Spinner loading testid="webhooks-loading" />
      ) : webhooks.data.length === 0 ? (
        <p className="text-sm text-stone-700" data-testid="webhooks-empty">
          {t('webhooks.empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-100" data-testid="webhooks">
          {webhooks.data.map((webhook) => (
            <WebhookRow key={webhook.id} webhook={webhook} />
          ))}
        </ul>
      )}
    </div>
  );
}
