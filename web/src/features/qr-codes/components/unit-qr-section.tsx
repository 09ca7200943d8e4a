/**
 * A unit's QR code for the door (spec §2 "Units screen"): enable it, see and copy the
 * public link, download it as SVG or PNG, regenerate or disable it (both cut off the old link at
 * once, so they ask first), and how many QR codes the company has left.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { type QrAction, useQrAction, useUnitQrCode } from '../api/qr-codes.ts';
import { downloadPng, downloadSvg } from '../qr-image.ts';
import { QrImage } from './qr-image.tsx';

function ConfirmQrAction({
  action,
  onConfirm,
  busy,
}: {
  action: 'regenerate' | 'disable';
  onConfirm: () => Promise<unknown>;
  busy: boolean;
}) {
  const { t } = useTranslation('qr');
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={t(`${action}.title`)}
      testid={`qr-${action}`}
      trigger={
        <Button
          variant={action === 'disable' ? 'danger' : 'secondary'}
          size="sm"
          testid={`qr-${action}-open`}
        >
          {t(`${action}.open`)}
        </Button>
      }
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('cancel')}</Button>
          </DialogClose>
          <Button
            variant={action === 'disable' ? 'danger' : 'primary'}
            loading={busy}
            onClick={() => void onConfirm().finally(() => setOpen(false))}
            testid={`qr-${action}-confirm`}
          >
            {t(`${action}.confirm`)}
          </Button>
        </>
      }
    >
      <p>{t(`${action}.text`)}</p>
    </Dialog>
  );
}

export function UnitQrSection({ unitId, unitName }: { unitId: string; unitName: string }) {
  const { t } = useTranslation('qr');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const state = useUnitQrCode(unitId);
  const mutation = useQrAction(unitId);
  const run = (action: QrAction) =>
    mutation.mutateAsync(action).then(
      () => toast({ type: 'success', title: t(`${action}.done`), testid: `toast-qr-${action}` }),
      (error: unknown) =>
        toast({
          type: 'error',
          title: t('error'),
          description: problems.reason(error),
          testid: 'toast-qr-error',
        }),
    );

  if (state.isPending) return <Spinner loading testid="qr-loading" />;
  if (state.isError) {
    return (
      <div role="alert" className="flex items-center gap-3 text-red-800" data-testid="qr-error">
        {t('loadError')}
        <Button variant="secondary" size="sm" onClick={() => void state.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  const { code, remaining, unlimited, allowance } = state.data;
  // Before any licence is bought there is nothing "left" or "given away": say where codes come from.
  const noLicences = !unlimited && allowance === 0;
  const remainingText = noLicences ? (
    <p className="text-sm text-stone-600" data-testid="qr-remaining">
      {t('noLicences')}
    </p>
  ) : (
    <p className="text-sm text-stone-600" data-testid="qr-remaining">
      {unlimited ? t('remainingUnlimited') : t('remaining', { count: remaining ?? 0 })}
    </p>
  );

  if (!code) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-stone-700">{t('disabledText')}</p>
        {remainingText}
        {remaining === 0 && !noLicences && <p className="text-sm text-amber-800">{t('noneLeft')}</p>}
        <div>
          <Button
            onClick={() => void run('enable')}
            loading={mutation.isPending}
            disabled={remaining === 0}
            testid="qr-enable"
          >
            {t('enable.open')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <QrImage
        url={code.url}
        name={unitName}
        className="w-48 shrink-0 rounded-lg border border-stone-200"
        testid="qr-image"
      />
      <div className="flex min-w-0 flex-col gap-3">
        <p className="text-stone-700">{t('enabledText')}</p>
        <div className="flex flex-wrap items-center gap-2">
          <a
            href={code.url}
            target="_blank"
            rel="noreferrer"
            className="break-all font-mono text-sm text-brand-700 hover:underline"
            data-testid="qr-link"
          >
            {code.url}
          </a>
          <Button
            variant="ghost"
            size="sm"
            onClick={() =>
              void navigator.clipboard
                .writeText(code.url)
                .then(() => toast({ type: 'success', title: t('copied'), testid: 'toast-qr-copied' }))
            }
            testid="qr-copy"
          >
            {t('copy')}
          </Button>
        </div>
        {remainingText}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void downloadSvg(code.url, unitName)}
            testid="qr-download-svg"
          >
            {t('downloadSvg')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void downloadPng(code.url, unitName)}
            testid="qr-download-png"
          >
            {t('downloadPng')}
          </Button>
          <Link
            to="/units/qr-sheet"
            className="self-center text-sm font-medium text-brand-700 hover:underline"
            data-testid="qr-sheet-link"
          >
            {t('sheetLink')}
          </Link>
        </div>
        <div className="flex flex-wrap gap-2">
          <ConfirmQrAction
            action="regenerate"
            busy={mutation.isPending}
            onConfirm={() => run('regenerate')}
          />
          <ConfirmQrAction action="disable" busy={mutation.isPending} onConfirm={() => run('disable')} />
        </div>
      </div>
    </div>
  );
}
