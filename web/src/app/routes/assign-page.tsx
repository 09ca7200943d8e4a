/**
 * `/assign` (spec §2): assign devices to units on site with a phone. Scan the device's
 * QR code with the camera or type/paste it (LoRa Alliance TR005 `LW:D0:…` or a bare DevEUI,
 * read by the shared `parseDeviceCode`), look the device up (404 → 'Device not found.'), choose
 * the unit (server 404 → 'Unknown unit'), assign; **next device** clears everything and, when
 * the camera was used, scans again. If the camera is refused or missing the page says why and
 * the typed input keeps working. One column, built for a 375 px wide screen.
 */
import { can } from '@heizplan/contracts/permissions';
import { DeviceCodeError, parseDeviceCode } from '@heizplan/contracts/tr005';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { Form, FormTextInput, useContractForm } from '../../components/ui/form.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { type CameraProblem, QrScanner } from '../../features/assign/components/qr-scanner.tsx';
import { useAssignCompany } from '../../features/assign/use-assign-company.ts';
import { useDeviceByEui } from '../../features/devices/api/get-device-by-eui.ts';
import { AssignDevice, type Assignment } from '../../features/devices/components/assign-device.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useCurrentRole } from '../../lib/use-can.ts';

/** A typed or scanned code read as a DevEUI; a code it cannot read names why (`codeErrors.*`). */
const CodeSchema = z.object({
  code: z.string().transform((text, ctx) => {
    try {
      return parseDeviceCode(text).devEui;
    } catch (error) {
      if (!(error instanceof DeviceCodeError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.code, params: { reason: error.code } });
      return z.NEVER;
    }
  }),
});

/**
 * Waits for the current company (see `useAssignCompany`), then shows the assign screen to
 * members who may assign devices (decision 0022: not `ems`).
 */
export function AssignPage() {
  const { t } = useTranslation('assign');
  usePageTitle(t('title'));
  const company = useAssignCompany();
  const role = useCurrentRole();
  if (company === 'ready' && role) {
    if (can(role, 'operate')) return <AssignScreen />;
    return (
      <p
        role="alert"
        className="m-4 rounded-lg bg-amber-50 p-4 text-amber-900"
        data-testid="assign-not-allowed"
      >
        {t('notAllowed')}
      </p>
    );
  }
  if (company === 'loading') {
    return (
      <div className="flex justify-center py-16">
        <Spinner loading size="lg" testid="assign-loading" />
      </div>
    );
  }
  return (
    <p role="alert" className="m-4 rounded-lg bg-amber-50 p-4 text-amber-900" data-testid="assign-no-company">
      {company === 'no-company' ? (
        <Link to="/setup" className="underline">
          {t('noCompany')}
        </Link>
      ) : (
        t('lookupError')
      )}
    </p>
  );
}

function AssignScreen() {
  const { t } = useTranslation('assign');
  const input = useRef<HTMLInputElement>(null);
  const [devEui, setDevEui] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const [usedCamera, setUsedCamera] = useState(false);
  const [cameraProblem, setCameraProblem] = useState<CameraProblem | null>(null);
  const [assignment, setAssignment] = useState<Assignment | null>(null);
  // Checked when looked up, not while typing: a half-typed code is no mistake yet.
  const form = useContractForm(CodeSchema, {
    mode: 'onSubmit',
    defaultValues: { code: '' },
    wording: (issue) => {
      const reason =
        issue.code === 'custom' ? (issue.params as { reason?: string } | undefined)?.reason : undefined;
      return reason ? t(`codeErrors.${reason}`) : undefined;
    },
  });
  const lookup = useDeviceByEui(devEui);
  const notFound = lookup.error instanceof ApiError && lookup.error.status === 404;
  // The device to assign, once a code was looked up successfully (the scan button then makes way).
  const found = devEui !== null ? lookup.data : undefined;

  const look = ({ code }: { code: string }) => {
    setDevEui(code);
    // A new code is a new device, even when typed without pressing "next device" first.
    setAssignment(null);
  };
  const refused = () => setDevEui(null);
  const startCamera = () => {
    setCameraProblem(null);
    setUsedCamera(true);
    setScanning(true);
  };
  const nextDevice = () => {
    form.reset();
    setDevEui(null);
    setAssignment(null);
    if (usedCamera && !cameraProblem) setScanning(true);
    else input.current?.focus();
  };

  return (
    <section className="mx-auto flex w-full max-w-md flex-col gap-4 p-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="mt-1 text-sm text-stone-600">{t('intro')}</p>
      </div>

      {scanning ? (
        <div className="flex flex-col gap-2">
          <QrScanner
            onScan={(text) => {
              setScanning(false);
              form.setValue('code', text);
              void form.handleSubmit(look, refused)();
            }}
            onProblem={(problem) => {
              setScanning(false);
              setCameraProblem(problem);
            }}
          />
          <Button variant="secondary" onClick={() => setScanning(false)} testid="assign-scan-stop">
            {t('scan.stop')}
          </Button>
        </div>
      ) : (
        !found && (
          <Button onClick={startCamera} testid="assign-scan-start" className="w-full">
            {t('scan.start')}
          </Button>
        )
      )}
      {cameraProblem && (
        <p
          role="alert"
          className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="assign-camera-problem"
        >
          {t(`scan.${cameraProblem}`)}
        </p>
      )}

      <Form form={form} onSubmit={look} onInvalid={refused} className="flex flex-col gap-3">
        <FormTextInput
          ref={input}
          name="code"
          label={t('code.label')}
          hint={t('code.hint')}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className="font-mono"
          testid="assign-code"
        />
        <Button type="submit" variant="secondary" testid="assign-lookup">
          {t('code.submit')}
        </Button>
      </Form>

      {devEui !== null && lookup.isPending && (
        <div className="flex justify-center py-6">
          <Spinner loading testid="assign-lookup-loading" />
        </div>
      )}
      {notFound && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800"
          data-testid="assign-not-found"
        >
          {t('notFound')}
        </p>
      )}
      {lookup.isError && !notFound && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800"
          data-testid="assign-lookup-error"
        >
          {t('lookupError')}
        </p>
      )}
      {found && (
        <AssignDevice key={found.id} device={found} assignment={assignment} onAssigned={setAssignment} />
      )}
      {devEui !== null && (
        <Button
          variant={assignment ? 'primary' : 'secondary'}
          onClick={nextDevice}
          testid="assign-next"
          className="w-full"
        >
          {t('next')}
        </Button>
      )}
    </section>
  );
}
