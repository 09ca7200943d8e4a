/**
 * The import screen (decision 0063): a CSV read in the browser, the mapping step pre-filled from
 * the suggested mapping and checked by the contract's rules, the dry run's problems listed with
 * row, field and text in German and English, the import's progress and summary; members who may
 * not create devices neither see the way there nor get the form.
 */
import type { ImportCheck, ImportMappingAnswer } from '@heizplan/contracts/imports';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { registryApi } from '../../test/devices-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';

const KEY = '2B7E151628AED2A6ABF7158809CF4F3C';
const CSV = `\uFEFFdev_eui;app_key;Raum;Bemerkung\n70B3D57ED005A1B2;${KEY};Raum 1;\n70b3;;Raum 99;neu\n`;

const suggested: ImportMappingAnswer = {
  kind: 'devices',
  mapping: { devEui: 'dev_eui', appKey: 'app_key', unit: 'Raum' },
  defaults: {},
  remembered: false,
  updatedAt: null,
};

const check = (over: Partial<ImportCheck> = {}): ImportCheck => ({
  kind: 'devices',
  rowCount: 2,
  problemCount: 0,
  problems: [],
  licences: { free: 1500, needed: 2 },
  mapping: suggested.mapping,
  defaults: { model: 'mclimate-vicki' },
  ...over,
});

function open(
  api: FetchHandler,
  { lang = 'de', role = 'admin' }: { lang?: 'de' | 'en'; role?: 'admin' | 'ems' } = {},
) {
  const handler: FetchHandler = (method, url, init) => {
    if (method === 'GET' && url.split('?')[0] === '/api/companies/c1/')
      return json(200, testCompany({ role }));
    return api(method, url, init);
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: handler });
  return { ...renderRoutes(routes, '/imports?kind=devices', { session }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof vi.fn>, part: string) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes(part)) as [string, RequestInit][];

async function chooseFile() {
  const input = await screen.findByTestId('import-file-input');
  await userEvent.upload(input, new File([CSV], 'geraete.csv', { type: 'text/csv' }));
  await screen.findByTestId('import-file-chosen');
  await userEvent.click(screen.getByTestId('import-file-next'));
  return screen.findByTestId('import-mapping');
}

describe('import screen', () => {
  beforeEach(async () => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('offers a template for the kind chosen, with headers the mapping knows, in German', async () => {
    open(() => undefined);
    const link = await screen.findByRole('link', {
      name: 'Vorlage für Geräte herunterladen (CSV für Excel)',
    });
    expect(link).toHaveAttribute('download', 'heizplan-geraete-vorlage.csv');
    const csv = decodeURIComponent(String(link.getAttribute('href')).split(',')[1] ?? '');
    expect(csv).toBe(
      '\uFEFFDevEUI;JoinEUI;AppKey;Modell;Raum\r\n70B3D52DD3000001;70B3D57ED0000000;;mclimate-vicki;Raum 101\r\n',
    );
    await userEvent.click(screen.getByRole('radio', { name: /Räume/ }));
    expect(
      await screen.findByRole('link', { name: 'Vorlage für Räume herunterladen (CSV für Excel)' }),
    ).toHaveAttribute('download', 'heizplan-raeume-vorlage.csv');
  });

  it('says before the file is chosen how many licences are free, and when none is, with the way to buy some', async () => {
    const billing = (usableLicences: number, deviceCount: number) => ({
      provider: 'manual',
      status: 'active',
      interval: 'yearly',
      nextInterval: null,
      licences: usableLicences,
      usableLicences,
      usedLicences: deviceCount,
      unitCount: 10,
      deviceCount,
      qrCodeCount: 0,
      maxLicencesPerOrder: 1000,
      hasBillingAddress: true,
      checkedOutAt: null,
      paymentMethod: 'immediate',
      currentPeriodEnd: '2027-11-23T10:00:00.000Z',
      cancelAtPeriodEnd: false,
      prices: {
        currency: 'EUR',
        perLicence: { monthly: 500, yearly: 4900, '3yearly': 13900 },
        vatPercent: 19,
      },
      netTotal: 0,
    });
    let licences = billing(10, 7);
    const answer: FetchHandler = (method, url) =>
      method === 'GET' && url === '/api/companies/c1/billing' ? json(200, licences) : undefined;
    const { unmount } = open(answer);
    expect(
      await screen.findByText('Jedes importierte Gerät braucht eine Lizenz: 3 von 10 sind frei.', {
        exact: false,
      }),
    ).toBeVisible();
    unmount();
    licences = billing(5, 5);
    open(answer);
    const note = await screen.findByText(/keine ist frei: Kaufen Sie zuerst Lizenzen/);
    expect(within(note).getByRole('link', { name: 'Lizenzen kaufen' })).toHaveAttribute(
      'href',
      '/settings/billing',
    );
  });

  it('maps the columns with the suggested mapping and lists every problem of the dry run in German', async () => {
    await setLanguage('de');
    const problems = check({
      rowCount: 1200,
      problemCount: 3,
      problems: [
        {
          row: null,
          field: null,
          column: null,
          code: 'import_licences_short',
          params: { free: 2, needed: 1200 },
        },
        { row: 3, field: 'devEui', column: 'dev_eui', code: 'import_eui_invalid', params: { value: '70b3' } },
        { row: 3, field: 'unit', column: 'Raum', code: 'import_unit_unknown', params: { name: 'Raum 99' } },
      ],
      licences: { free: 2, needed: 1200 },
    });
    const { fetchMock } = open((method, url) => {
      const path = url.split('?')[0];
      if (method === 'GET' && path === '/api/companies/c1/imports/devices/mapping')
        return json(200, suggested);
      if (method === 'POST' && path === '/api/companies/c1/imports/devices/dry-run')
        return json(200, problems);
      return undefined;
    });
    expect(await screen.findByText('Importieren', { selector: 'h1' })).toBeInTheDocument();
    const mapping = await chooseFile();
    // The file's headers go to the server, which suggests (or remembers) the mapping.
    const [mappingUrl] = calls(fetchMock, '/imports/devices/mapping')[0] ?? [''];
    expect(new URL(mappingUrl, 'http://x').searchParams.get('columns')).toBe(
      JSON.stringify(['dev_eui', 'app_key', 'Raum', 'Bemerkung']),
    );
    expect(within(mapping).getByTestId('import-mapping-source')).toHaveTextContent(
      'aus den Spaltennamen vorgeschlagen',
    );
    expect(screen.getByTestId('import-column-devEui')).toHaveValue('dev_eui');
    expect(screen.getByTestId('import-column-unit')).toHaveValue('Raum');
    expect(screen.getByTestId('import-column-model')).toHaveValue('');
    expect(within(screen.getByTestId('import-preview')).getByText('Raum 99')).toBeInTheDocument();

    // The model has neither column nor default: the contract's rule says so, nothing is sent.
    await userEvent.click(screen.getByTestId('import-mapping-check'));
    expect(await screen.findByTestId('import-column-model-field-error')).toHaveTextContent(
      'Ordnen Sie diesem Feld eine Spalte zu oder geben Sie einen Standardwert an.',
    );
    expect(calls(fetchMock, '/dry-run')).toHaveLength(0);
    await userEvent.selectOptions(screen.getByTestId('import-default-model'), 'mclimate-vicki');
    await userEvent.click(screen.getByTestId('import-mapping-check'));

    const list = await screen.findByTestId('import-problems');
    const [url, init] = calls(fetchMock, '/dry-run')[0] ?? ['', {}];
    const query = new URL(url, 'http://x').searchParams;
    expect(JSON.parse(query.get('mapping') ?? '')).toMatchObject({
      devEui: 'dev_eui',
      appKey: 'app_key',
      unit: 'Raum',
    });
    expect(JSON.parse(query.get('defaults') ?? '')).toMatchObject({ model: 'mclimate-vicki' });
    expect((init.headers as Record<string, string>)['content-type']).toBe('text/csv');
    expect(init.body).toBeInstanceOf(File);

    expect(screen.getByTestId('import-check-summary')).toHaveTextContent('1.200 Zeilen geprüft.');
    expect(screen.getByTestId('import-check-licences')).toHaveTextContent(
      'Lizenzen: 2 frei, 1.200 benötigt.',
    );
    expect(screen.getByTestId('import-check-result')).toHaveTextContent('3 Probleme gefunden.');
    const items = within(list).getAllByTestId('import-problem');
    expect(items.map((item) => item.textContent)).toEqual([
      'DateiDie Datei enthält 1.200 Geräte, aber nur 2 Lizenzen sind frei. Kaufen Sie unter Einstellungen → Abrechnung weitere Lizenzen oder importieren Sie weniger Geräte.',
      'Zeile 3 · DevEUI„70b3“ ist keine EUI: Eine EUI hat genau 16 Hexadezimalziffern.',
      'Zeile 3 · RaumEinen Raum „Raum 99“ gibt es in Ihrer Firma nicht.',
    ]);
    expect(screen.queryByTestId('import-commit')).toBeNull();
    expect(screen.getByTestId('import-buy-licences')).toHaveTextContent('Lizenzen kaufen');
  });

  it('says the problems in English and imports a clean file with progress and a summary', async () => {
    await setLanguage('en');
    let send: ((line: object) => void) | undefined;
    let close: (() => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (line) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
        close = () => controller.close();
      },
    });
    let checks = 0;
    open(
      (method, url) => {
        const path = url.split('?')[0];
        if (method === 'GET' && path === '/api/companies/c1/imports/devices/mapping')
          return json(200, { ...suggested, remembered: true, defaults: { model: 'mclimate-vicki' } });
        if (method === 'POST' && path === '/api/companies/c1/imports/devices/dry-run') {
          checks++;
          return json(
            200,
            checks === 1
              ? check({
                  problemCount: 1,
                  problems: [
                    {
                      row: 3,
                      field: 'devEui',
                      column: 'dev_eui',
                      code: 'import_duplicate',
                      params: { value: '70b3d57ed005a1b2', row: 2 },
                    },
                  ],
                })
              : check(),
          );
        }
        if (method === 'POST' && path === '/api/companies/c1/imports/devices/commit')
          return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
        return undefined;
      },
      { lang: 'en' },
    );
    await chooseFile();
    expect(screen.getByTestId('import-mapping-source')).toHaveTextContent(
      'The mapping of your last import was applied.',
    );
    expect(screen.getByTestId('import-default-model')).toHaveValue('mclimate-vicki');
    await userEvent.click(screen.getByTestId('import-mapping-check'));
    expect(await screen.findByTestId('import-problem')).toHaveTextContent(
      'Row 3 · DevEUI“70b3d57ed005a1b2” is already on row 2 of the file.',
    );
    await userEvent.click(screen.getByTestId('import-check-back'));
    await userEvent.click(await screen.findByTestId('import-mapping-check'));
    expect(await screen.findByTestId('import-check-result')).toHaveTextContent('No problems found.');
    await userEvent.click(screen.getByTestId('import-commit'));
    expect(await screen.findByTestId('import-progress-text')).toHaveTextContent('Starting the import');
    send?.({ done: 0, total: 2500 });
    send?.({ done: 1000, total: 2500 });
    await waitFor(() =>
      expect(screen.getByTestId('import-progress-text')).toHaveTextContent('1,000 of 2,500 rows written'),
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1000');
    send?.({ done: 2500, total: 2500 });
    send?.({ result: { kind: 'devices', created: 2500, assigned: 1 } });
    close?.();
    const result = await screen.findByTestId('import-result');
    expect(result).toHaveTextContent('2,500 devices imported.');
    expect(result).toHaveTextContent('1 device is assigned to a unit and gets its setpoint.');
    expect(screen.getByTestId('import-to-list')).toHaveAttribute('href', '/devices');
    // Every step done, none left "in progress".
    const steps = within(screen.getByRole('navigation', { name: 'Progress' })).getAllByRole('listitem');
    expect(steps).toHaveLength(4);
    for (const step of steps) expect(step).toHaveAttribute('data-state', 'done');
    expect(screen.getByRole('navigation', { name: 'Progress' })).not.toHaveTextContent('in progress');
  });

  it('offers the import only to members who may create devices', async () => {
    await setLanguage('de');
    open(registryApi({}), { role: 'ems' });
    expect(await screen.findByTestId('imports-forbidden')).toHaveTextContent(
      'Importieren dürfen nur Mitglieder',
    );
    expect(screen.queryByTestId('import-wizard')).toBeNull();
  });

  it('links the devices screen to the import for operators', async () => {
    await setLanguage('de');
    const { session } = signIn({ profile: testProfile({ lang: 'de' }), extra: registryApi({}) });
    renderRoutes(routes, '/devices', { session });
    expect(await screen.findByTestId('devices-import')).toHaveAttribute('href', '/imports?kind=devices');
  });
});
