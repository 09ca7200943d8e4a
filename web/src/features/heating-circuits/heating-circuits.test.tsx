/**
 * The heating circuits screen: a circuit reads as a caretaker needs it in German — whether the
 * heat generator should run, the recommended supply temperature beside the heating curve's, the
 * demand, the rooms holding the supply temperature up now and over the week — with its chart
 * named by its latest values and its table; an admin creates one with the contract's body and
 * sees a crossed limit named under its field before anything is sent; a member who only reads
 * gets no control to change anything.
 */
import type { CircuitReadings, CircuitWrites, HeatingCircuit } from '@heizplan/contracts/heating-circuits';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { testBuilding } from '../../test/buildings-fixtures.ts';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';

// uPlot needs a canvas jsdom does not have; the chart's options are plain data.
vi.mock('./components/circuit-chart.tsx', () => ({ default: () => <div data-testid="circuit-chart" /> }));

const NOW = new Date('2027-01-12T08:00:00Z');
const building = testBuilding();
const KLASSE = '00000000-0000-4000-a000-0000000000a1';

const circuit: HeatingCircuit = {
  id: '00000000-0000-4000-a000-0000000000c1',
  name: 'Heizkreis Nord',
  buildingId: building.id,
  generatorType: 'heat_pump_air',
  designSupply: 70,
  designReturn: 55,
  designOutdoor: -12,
  curveSupply: 70,
  curveRoom: 20,
  minSupply: 25,
  maxSupply: 75,
  mode: 'shadow',
  output: null,
  unitIds: [KLASSE, '00000000-0000-4000-a000-0000000000a2', '00000000-0000-4000-a000-0000000000a3'],
  createdAt: '2027-01-01T10:00:00.000Z',
  state: {
    at: '2027-01-12T07:55:00.000Z',
    enabled: true,
    reason: 'demand',
    supplySetpoint: 44.5,
    curveSupply: 53.2,
    outdoor: -2.5,
    demandPercent: 41,
    roomsNeedingHeat: 2,
    holdingUp: [{ unitId: KLASSE, name: 'Klasse 1a', requests: 2 }],
  },
  holdingUpWeek: [{ unitId: KLASSE, name: 'Klasse 1a', requests: 318 }],
  lastWrite: null,
};

const readings: CircuitReadings = {
  readings: [
    {
      at: '2027-01-12T07:50:00.000Z',
      outdoor: -2.5,
      curveSupply: 53.2,
      supplySetpoint: 42.8,
      demandPercent: 39,
      enabled: true,
      holdingUnitId: KLASSE,
    },
    {
      at: '2027-01-12T07:55:00.000Z',
      outdoor: -2.5,
      curveSupply: 53.2,
      supplySetpoint: 44.5,
      demandPercent: 41,
      enabled: true,
      holdingUnitId: KLASSE,
    },
  ],
};

/** A circuit in mode "on" writing to a Modbus device, whose last write read back a change by hand. */
const acting: HeatingCircuit = {
  ...circuit,
  mode: 'on',
  output: {
    kind: 'modbus',
    host: '192.0.2.10',
    port: 502,
    unitId: 1,
    setpoint: { register: 100, scale: 10, signed: false, readBack: true },
    enable: { kind: 'coil', coil: 5, readBack: true },
    timeoutMs: 3000,
  },
  lastWrite: {
    at: '2027-01-12T07:55:00.000Z',
    enabled: true,
    supplySetpoint: 44.5,
    ok: true,
    detail: 'Modbus TCP 192.0.2.10:502 unit 1: wrote …',
    readBackEnabled: false,
    readBackSetpoint: 44.5,
    override: true,
  },
};

const writes: CircuitWrites = {
  writes: [
    acting.lastWrite as CircuitWrites['writes'][number],
    {
      at: '2027-01-12T07:40:00.000Z',
      enabled: true,
      supplySetpoint: 44.5,
      ok: false,
      detail: 'Modbus TCP 192.0.2.10:502 unit 1: connecting: ECONNREFUSED',
      readBackEnabled: null,
      readBackSetpoint: null,
      override: false,
    },
  ],
};

function open(circuits: HeatingCircuit[], role: 'admin' | 'ems' = 'admin') {
  const api: FetchHandler = (method, url) => {
    const [path] = url.split('?');
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/c1/buildings')
      return json(200, { results: [building], count: 1, page: 1, size: 200 });
    if (method === 'GET' && path === '/api/companies/c1/heating-circuits')
      return json(200, { results: circuits, count: circuits.length, page: 1, size: 200 });
    if (method === 'GET' && path === `/api/companies/c1/heating-circuits/${circuit.id}/readings`)
      return json(200, readings);
    if (method === 'GET' && path === `/api/companies/c1/heating-circuits/${circuit.id}/writes`)
      return json(200, writes);
    if (method === 'POST' && path === '/api/companies/c1/heating-circuits') return json(201, circuit);
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'de' }), role, extra: api });
  renderRoutes(routes, '/heating-circuits', { session, clock: fixedClock(NOW) });
  return fetchMock;
}

describe('heating circuits screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says in German what the heat generator should do, why, and which room holds the supply up', async () => {
    open([circuit]);
    const card = await screen.findByRole('article', { name: 'Heizkreis Nord' });
    expect(
      await within(card).findByText('Hauptgebäude · Wärmepumpe Luft/Wasser · Schattenbetrieb (nur anzeigen)'),
    ).toBeInTheDocument();
    expect(within(card).getByText('Wärmeerzeuger an, Vorlauf 44,5 °C.', { exact: false })).toHaveTextContent(
      'Wärmeerzeuger an, Vorlauf 44,5 °C. Räume brauchen Wärme.',
    );
    expect(within(card).getByText('53,2 °C bei -2,5 °C außen')).toBeInTheDocument();
    expect(within(card).getByText('41 %')).toBeInTheDocument();
    expect(within(card).getByText('2 von 3')).toBeInTheDocument();
    const now = within(card).getByRole('region', { name: 'Räume, die den Vorlauf jetzt hochhalten' });
    expect(now).toHaveTextContent('Klasse 1a: 2 Anforderungen');
    const week = within(card).getByRole('region', {
      name: 'Räume, die ihn in den letzten 7 Tagen am meisten hochhielten',
    });
    expect(within(week).getByRole('listitem')).toHaveTextContent('Klasse 1a: 318 Anforderungen');

    expect(
      await within(card).findByRole('img', {
        name: 'Vorlauf von Heizkreis Nord, 48 Stunden: zuletzt empfohlen 44,5 °C, Heizkurve 53,2 °C',
      }),
    ).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Daten als Tabelle' }));
    const table = within(card).getByRole('table', { name: /Heizkreis Heizkreis Nord, 48 Stunden/ });
    // 07:55 UTC is 08:55 in Berlin.
    expect(within(table).getByRole('row', { name: /12\.01\.2027, 08:55/ })).toHaveTextContent('44,5 °C');
  });

  it('creates a circuit with the contract body and names a crossed limit under its field before sending', async () => {
    const fetchMock = open([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Heizkreis anlegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuer Heizkreis' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Heizkreis Süd');
    const lowest = within(dialog).getByRole('textbox', { name: 'Niedrigster Vorlauf (°C)' });
    await userEvent.clear(lowest);
    await userEvent.type(lowest, '80');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    expect(await within(dialog).findByText('Höchstens 60 °C')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
    ).toBe(false);

    await userEvent.clear(lowest);
    await userEvent.type(lowest, '30,5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
      ).toBe(true),
    );
    const post = fetchMock.mock.calls.find(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toEqual({
      name: 'Heizkreis Süd',
      buildingId: building.id,
      generatorType: 'condensing_boiler',
      designSupply: 70,
      designReturn: 55,
      designOutdoor: -12,
      curveSupply: 70,
      curveRoom: 20,
      minSupply: 30.5,
      maxSupply: 75,
      mode: 'shadow',
      output: null,
      unitIds: [],
    });
  });

  it('gives a member who only reads the circuits without any control to change them', async () => {
    open([circuit], 'ems');
    const card = await screen.findByRole('article', { name: 'Heizkreis Nord' });
    expect(within(card).queryByRole('button', { name: /bearbeiten|löschen/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Neuer Heizkreis' })).not.toBeInTheDocument();
  });

  it.each(['admin', 'ems'] as const)(
    'shows on the card what was last written to the generator, the change by hand, and the recent writes (%s)',
    async (role) => {
      {
        open([acting], role);
        const card = await screen.findByRole('article', { name: 'Heizkreis Nord' });
        expect(
          await within(card).findByText('Hauptgebäude · Wärmepumpe Luft/Wasser · An'),
        ).toBeInTheDocument();
        // Every member reads the writes; only an admin gets the controls.
        expect(within(card).queryAllByRole('button', { name: /bearbeiten/i })).toHaveLength(
          role === 'admin' ? 1 : 0,
        );
        const written = within(card).getByRole('region', { name: 'An den Wärmeerzeuger geschrieben' });
        // 07:55 UTC is 08:55 in Berlin.
        expect(
          within(written).getByText('Zuletzt 12.01.2027, 08:55: an, Vorlauf 44,5 °C – übernommen'),
        ).toBeInTheDocument();
        expect(
          within(written).getByText(
            'Von Hand geändert: Der Wärmeerzeuger meldet aus, 44,5 °C. Heizplan schreibt bis 12.01.2027, 09:55 nicht.',
          ),
        ).toBeInTheDocument();
        const recent = await within(written).findByRole('region', { name: 'Letzte Schreibvorgänge' });
        expect(
          within(recent)
            .getAllByRole('listitem')
            .map((item) => item.textContent),
        ).toEqual([
          '12.01.2027, 08:55: an, Vorlauf 44,5 °C – übernommen, von Hand geändert',
          '12.01.2027, 08:40: an, Vorlauf 44,5 °C – fehlgeschlagen',
        ]);
      }
    },
  );

  it('chooses a Modbus TCP output in the dialog, names a missing host under its field, and sends the output with the contract body', async () => {
    const fetchMock = open([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Heizkreis anlegen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuer Heizkreis' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Heizkreis Süd');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Betrieb' }), 'An');
    const kind = within(dialog).getByRole('combobox', { name: 'Ausgang' });
    expect(
      within(kind)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Keiner', 'Modbus TCP', 'MQTT (Gebäudeleittechnik)', 'LoRaWAN-Relais (Dragino LT-22222-L)']);
    await userEvent.selectOptions(kind, 'Modbus TCP');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    const host = within(dialog).getByRole('textbox', { name: 'Adresse (Host)' });
    await waitFor(() => expect(host).toHaveAccessibleDescription('Bitte füllen Sie dieses Feld aus.'));
    expect(
      fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
    ).toBe(false);

    await userEvent.type(host, '192.0.2.10');
    const register = within(dialog).getByRole('textbox', { name: 'Register der Vorlauftemperatur' });
    await userEvent.clear(register);
    await userEvent.type(register, '100');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Freigabe über' }),
      'Holding-Register',
    );
    const enable = within(dialog).getByRole('textbox', { name: 'Register der Freigabe' });
    await userEvent.clear(enable);
    await userEvent.type(enable, '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Anlegen' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
      ).toBe(true),
    );
    const post = fetchMock.mock.calls.find(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toMatchObject({
      name: 'Heizkreis Süd',
      mode: 'on',
      output: {
        kind: 'modbus',
        host: '192.0.2.10',
        port: 502,
        unitId: 1,
        setpoint: { register: 100, scale: 10, signed: false, readBack: true },
        enable: { kind: 'register', register: 200, on: 1, off: 0, readBack: true },
        timeoutMs: 3000,
      },
    });
  });
});
