/**
 * The alert centre's screens: the list in words with its filters, acknowledging and
 * muting, what each role sees, the rules, webhooks with their one-time secret, the member's mail
 * setting, and the badge, row markers and unit banner that lead there.
 */
import type { Role } from '@heizplan/contracts/account';
import {
  type Alert,
  type AlertPreferences,
  type AlertSummary,
  DEFAULT_ALERT_SETTINGS,
  type Webhook,
} from '@heizplan/contracts/alerts';
import type { Unit } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock, testNow } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit, unitSearchApi, unitSearches } from '../../test/units-fixtures.ts';

/** The screen's clock: an alert is muted while its `mutedUntil` lies after it. HEIZPLAN_TEST_NOW moves it. */
const NOW = testNow('2026-11-24T09:00:00+01:00');
const inHours = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();

const UNIT = '00000000-0000-4000-8000-00000000a001';
const testAlert = (over: Partial<Alert> = {}): Alert => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  kind: 'low_battery',
  subject: 'device',
  subjectId: '70b3d52dd3000001',
  subjectName: '70b3d52dd3000001',
  code: null,
  unitId: UNIT,
  unitName: 'Aula',
  buildingId: null,
  buildingName: null,
  floor: null,
  state: 'open',
  openedAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-22T08:00:00.000Z',
  occurrences: 1,
  resolvedAt: null,
  acknowledgedAt: null,
  acknowledgedBy: null,
  note: null,
  mutedUntil: null,
  details: { battery: 12, unit: '%', daysLeft: 9 },
  ...over,
});
const fault = testAlert({
  id: '00000000-0000-4000-8000-0000000000a2',
  kind: 'device_fault',
  code: 'calibrationFailed',
  details: {},
  occurrences: 3,
});
const summary = (over: Partial<AlertSummary> = {}): AlertSummary => ({
  attention: 2,
  open: 2,
  units: { [UNIT]: 2 },
  devices: { '70b3d52dd3000001': 2 },
  ...over,
});
const PREFS = {
  device_offline: 'immediate',
  gateway_offline: 'immediate',
  low_battery: 'immediate',
  device_fault: 'immediate',
  open_window: 'immediate',
  frost: 'immediate',
  not_warming: 'immediate',
  far_from_setpoint: 'immediate',
  setpoint_not_delivered: 'immediate',
  setpoints_stalled: 'immediate',
  booking_feed_stale: 'immediate',
  efficiency_target_missed: 'digest',
  generator_write_failed: 'immediate',
} satisfies AlertPreferences;
const hook: Webhook = {
  id: '00000000-0000-4000-8000-0000000000b1',
  url: 'https://hooks.example.com/heizplan',
  enabled: true,
  createdAt: '2026-11-20T08:00:00.000Z',
  delivered: 4,
  failing: 1,
};

interface Centre {
  role?: Role;
  alerts?: Alert[];
  webhooks?: Webhook[];
  writes?: FetchHandler;
  path?: string;
  lang?: 'de' | 'en';
  /** The company's rooms, searched by the unit filter. */
  units?: Unit[];
}

function openCentre({
  role = 'admin',
  alerts = [testAlert(), fault],
  webhooks = [hook],
  writes,
  path = '/alerts',
  lang = 'en',
  units = [],
}: Centre = {}) {
  const unitSearch = unitSearchApi(units);
  const api: FetchHandler = (method, url, init) => {
    const p = url.split('?')[0] ?? '';
    const written = method === 'GET' ? undefined : writes?.(method, url, init);
    if (written) return written;
    if (method === 'GET' && p === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && p === '/api/companies/c1/alerts') {
      return json(200, { results: alerts, count: alerts.length, page: 1, size: 10 });
    }
    if (method === 'GET' && p === '/api/companies/c1/alerts/summary') return json(200, summary());
    if (method === 'GET' && p === '/api/companies/c1/alert-settings')
      return json(200, DEFAULT_ALERT_SETTINGS);
    if (p === '/api/companies/c1/alert-settings')
      return json(200, { ...DEFAULT_ALERT_SETTINGS, ...JSON.parse(String(init.body)) });
    if (method === 'GET' && p === '/api/companies/c1/alert-preferences') return json(200, PREFS);
    if (p === '/api/companies/c1/alert-preferences')
      return json(200, { ...PREFS, ...JSON.parse(String(init.body)) });
    if (method === 'GET' && p === '/api/companies/c1/webhooks') return json(200, { results: webhooks });
    if (method === 'POST' && p === '/api/companies/c1/webhooks') {
      return json(201, {
        ...hook,
        id: '00000000-0000-4000-8000-0000000000b2',
        url: JSON.parse(String(init.body)).url,
        secret: 'whsec_once',
      });
    }
    if (method === 'GET' && p.endsWith('/deliveries')) {
      return json(200, {
        results: [
          {
            id: '00000000-0000-4000-8000-0000000000c1',
            event: 'alert.opened',
            alertId: fault.id,
            status: 'failed',
            attempts: 8,
            lastStatusCode: 500,
            lastError: null,
            createdAt: '2026-11-21T08:00:00.000Z',
            nextAttemptAt: null,
            deliveredAt: null,
          },
        ],
      });
    }
    if (method === 'POST' && p.endsWith('/acknowledge'))
      return json(200, testAlert({ acknowledgedAt: '2026-11-22T09:00:00.000Z' }));
    if (method === 'POST' && p.endsWith('/mute')) return json(200, testAlert());
    if (method === 'PATCH' && p.startsWith('/api/companies/c1/webhooks/'))
      return json(200, { ...hook, enabled: false });
    if (method === 'DELETE') return json(204);
    const unitAnswer = unitSearch(method, url, init);
    if (unitAnswer) return unitAnswer;
    if (method === 'GET' && p === '/api/companies/c1/groups')
      return json(200, { results: [], count: 0, page: 1, size: 200 });
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, path, { session, clock: fixedClock(NOW) }), fetchMock };
}

const callsTo = (fetchMock: ReturnType<typeof vi.fn>, method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) =>
      String(url).split('?')[0] === path && ((init as RequestInit)?.method ?? 'GET') === method,
  );
const bodiesOf = (fetchMock: ReturnType<typeof vi.fn>, method: string, path: string) =>
  callsTo(fetchMock, method, path).map(([, init]) =>
    JSON.parse(String((init as RequestInit).body ?? 'null')),
  );

describe('alert centre', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says what is wrong and what to do, with the fault code explained, and asks for open alerts first', async () => {
    const { fetchMock } = openCentre();
    const low = await screen.findByTestId(`alert-${testAlert().id}`);
    expect(low).toHaveTextContent('Low battery');
    expect(low).toHaveTextContent('Battery at 12 %, about 9 days left. Replace it soon.');
    expect(screen.getByTestId(`alert-${fault.id}`)).toHaveTextContent(
      'Calibration failed. Mount the device again and repeat the calibration.',
    );
    expect(screen.getByTestId(`alert-state-${fault.id}`)).toHaveTextContent('occurred 3×');
    const query = new URLSearchParams(
      String(callsTo(fetchMock, 'GET', '/api/companies/c1/alerts')[0]?.[0]).split('?')[1],
    );
    expect(query.get('state')).toBe('open');
    expect(query.get('sort')).toBe('openedAt');
  });

  it('names the heating circuit whose generator does not take the command, and since when, in German', async () => {
    const circuit = testAlert({
      id: '00000000-0000-4000-8000-0000000000a3',
      kind: 'generator_write_failed',
      subject: 'heating_circuit',
      subjectId: '00000000-0000-4000-8000-0000000000c1',
      subjectName: 'Heizkreis Nord',
      unitId: null,
      unitName: null,
      buildingName: 'Hauptgebäude',
      details: { circuit: 'Heizkreis Nord', since: '2026-11-24T06:30:00Z', at: '2026-11-24T07:45:00Z' },
    });
    openCentre({ alerts: [circuit], lang: 'de' });
    const row = await screen.findByTestId(`alert-${circuit.id}`);
    expect(row).toHaveTextContent('Wärmeerzeuger nimmt die Vorgabe nicht an');
    expect(row).toHaveTextContent(
      'Seit 24.11.2026, 06:30 nimmt der Wärmeerzeuger des Heizkreises „Heizkreis Nord“ die Vorgabe nicht an, zuletzt um 24.11.2026, 07:45.',
    );
  });

  it('filters by kind and state through the server', async () => {
    const { fetchMock } = openCentre();
    await screen.findByTestId(`alert-${fault.id}`);
    await userEvent.selectOptions(screen.getByTestId('alerts-kind'), 'device_fault');
    await userEvent.selectOptions(screen.getByTestId('alerts-state'), 'all');
    await waitFor(() => {
      const last = callsTo(fetchMock, 'GET', '/api/companies/c1/alerts').at(-1)?.[0];
      const query = new URLSearchParams(String(last).split('?')[1]);
      expect(query.get('kind')).toBe('device_fault');
      expect(query.has('state')).toBe(false);
    });
  });

  it('names a linked room beyond the first page in the unit filter and finds others by typing', async () => {
    // 70 rooms: one search page (50) does not hold them all.
    const rooms = Array.from({ length: 70 }, (_, i) =>
      testUnit({ name: `Zimmer ${String(i + 1).padStart(2, '0')}` }),
    );
    const linked = rooms[65]!;
    const far = rooms[69]!;
    const { fetchMock } = openCentre({ units: rooms, path: `/alerts?unitId=${linked.id}` });
    const filter = await screen.findByRole('combobox', { name: 'Unit' });
    // The unit table's link gives only the id: its name is asked for once.
    await waitFor(() => expect(filter).toHaveValue('Zimmer 66'));
    const unitFilter = () =>
      new URLSearchParams(
        String(callsTo(fetchMock, 'GET', '/api/companies/c1/alerts').at(-1)?.[0]).split('?')[1],
      ).get('unitId');
    expect(unitFilter()).toBe(linked.id);
    await userEvent.type(filter, 'Zimmer 70');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 70' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 70');
    await waitFor(() => expect(unitFilter()).toBe(far.id));
    await userEvent.click(filter);
    const list = screen.getByRole('listbox', { name: 'Unit' });
    await userEvent.click(await within(list).findByRole('option', { name: 'All' }));
    expect(filter).toHaveValue('All');
  });

  it('shows an empty state when nothing is open', async () => {
    openCentre({ alerts: [] });
    expect(await screen.findByText('All is well – there are no alerts for your selection.')).toBeVisible();
  });

  it('acknowledges an alert with a note', async () => {
    const { fetchMock } = openCentre();
    await userEvent.click(await screen.findByTestId(`alert-ack-${fault.id}`));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('alert-ack-note'), 'Techniker bestellt');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText('Alert acknowledged')).toBeVisible();
    expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/alerts/${fault.id}/acknowledge`)).toEqual([
      { note: 'Techniker bestellt' },
    ]);
  });

  it('mutes an alert for a day', async () => {
    const { fetchMock } = openCentre({ alerts: [fault] });
    await userEvent.click(await screen.findByRole('button', { name: 'Mute' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '1 day' }));
    expect(await screen.findByText('Muting changed')).toBeVisible();
    expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/alerts/${fault.id}/mute`)).toEqual([{ hours: 24 }]);
  });

  it('moves through the muting choices with the arrow keys without muting, and mutes on Enter', async () => {
    const { fetchMock } = openCentre({ alerts: [fault] });
    const button = await screen.findByRole('button', { name: 'Mute' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: '8 hours' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: '1 day' })).toHaveFocus();
    expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/alerts/${fault.id}/mute`)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/alerts/${fault.id}/mute`)).toEqual([]);
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Muting changed')).toBeVisible();
    expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/alerts/${fault.id}/mute`)).toEqual([{ hours: 24 }]);
  });

  it('shows who acknowledged, the note and the muting, and offers no second acknowledgement', async () => {
    const done = testAlert({
      acknowledgedAt: '2026-11-22T09:00:00.000Z',
      acknowledgedBy: { id: 'u2', name: 'Grace Hopper' },
      note: 'Batterien bestellt',
      mutedUntil: inHours(8),
    });
    openCentre({ alerts: [done] });
    const state = await screen.findByTestId(`alert-state-${done.id}`);
    expect(state).toHaveTextContent('Acknowledged by Grace Hopper');
    expect(state).toHaveTextContent('„Batterien bestellt“');
    expect(state).toHaveTextContent('Muted until');
    await userEvent.click(screen.getByRole('button', { name: 'Muted – change' }));
    expect(await screen.findByRole('menuitem', { name: 'Unmute' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: /Acknowledge/ })).toBeNull();
  });

  it('reads an alert whose muting ran out a minute ago as not muted, and offers muting again', async () => {
    const lapsed = testAlert({ mutedUntil: inHours(-1 / 60) });
    openCentre({ alerts: [lapsed] });
    const state = await screen.findByTestId(`alert-state-${lapsed.id}`);
    expect(state).not.toHaveTextContent('Muted until');
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByRole('menuitem', { name: '8 hours' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Unmute' })).toBeNull();
    await userEvent.keyboard('{Escape}');
  });

  it('gives a member who only reads (EMS) the list without actions, the rules read-only and no webhooks', async () => {
    openCentre({ role: 'ems' });
    await screen.findByTestId(`alert-${fault.id}`);
    expect(screen.queryByTestId(`alert-ack-${fault.id}`)).toBeNull();
    expect(screen.queryByTestId(`alert-mute-${fault.id}`)).toBeNull();
    expect(screen.queryByTestId('alerts-tab-webhooks')).toBeNull();
    await userEvent.click(screen.getByTestId('alerts-tab-rules'));
    expect(await screen.findByTestId('rules-read-only')).toBeVisible();
    expect(screen.getByTestId('rules-kind-low_battery')).toBeDisabled();
    expect(screen.queryByTestId('rules-save')).toBeNull();
  });

  it('lets an admin change the rules and sends them as numbers', async () => {
    const { fetchMock } = openCentre();
    await userEvent.click(await screen.findByTestId('alerts-tab-rules'));
    await userEvent.click(await screen.findByTestId('rules-kind-open_window'));
    const percent = screen.getByTestId('rules-lowBatteryPercent');
    await userEvent.clear(percent);
    await userEvent.type(percent, '25');
    await userEvent.click(screen.getByTestId('rules-save'));
    expect(await screen.findByText('Rules saved')).toBeVisible();
    const [body] = bodiesOf(fetchMock, 'PATCH', '/api/companies/c1/alert-settings');
    expect(body.lowBatteryPercent).toBe(25);
    expect(body.enabled).not.toContain('open_window');
    expect(body.enabled).toContain('device_fault');
  });

  it('shows the reason beside a rule the server refused', async () => {
    openCentre({
      writes: (method, url) =>
        method === 'PATCH' && url.startsWith('/api/companies/c1/alert-settings')
          ? problem(400, 'Bad Request', 'Invalid', [
              { field: 'body.offlineIntervals', message: 'Too small', code: 'too_small' },
            ])
          : undefined,
    });
    await userEvent.click(await screen.findByTestId('alerts-tab-rules'));
    await userEvent.click(await screen.findByTestId('rules-save'));
    expect(await screen.findByText('Error saving')).toBeVisible();
    expect(screen.getByTestId('rules-offlineIntervals')).toHaveAttribute('aria-invalid', 'true');
  });

  it('adds a webhook and shows its secret once, lists deliveries and removes it after confirmation', async () => {
    const { fetchMock } = openCentre();
    await userEvent.click(await screen.findByTestId('alerts-tab-webhooks'));
    expect(await screen.findByText('4 delivered, 1 failing (7 days)')).toBeVisible();
    await userEvent.type(screen.getByTestId('webhook-url'), 'https://erp.example.com/in');
    await userEvent.click(screen.getByTestId('webhook-add'));
    expect(await screen.findByTestId('webhook-secret-value')).toHaveTextContent('whsec_once');
    expect(bodiesOf(fetchMock, 'POST', '/api/companies/c1/webhooks')).toEqual([
      { url: 'https://erp.example.com/in' },
    ]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('webhook-secret-value')).toBeNull());

    await userEvent.click(screen.getByTestId(`webhook-log-${hook.id}`));
    const log = await screen.findByTestId(`webhook-deliveries-${hook.id}`);
    expect(await within(log).findByText('Given up')).toBeVisible();

    await userEvent.click(screen.getByTestId(`webhook-delete-${hook.id}`));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Webhook removed')).toBeVisible();
    expect(callsTo(fetchMock, 'DELETE', `/api/companies/c1/webhooks/${hook.id}`)).toHaveLength(1);
  });

  it('copies the one-time secret from the keyboard and confirms it, in German', async () => {
    await setLanguage('de');
    const user = userEvent.setup();
    openCentre({ lang: 'de', path: '/alerts?tab=webhooks' });
    await user.type(await screen.findByTestId('webhook-url'), 'https://erp.example.com/in');
    await user.click(screen.getByTestId('webhook-add'));
    await screen.findByTestId('webhook-secret-value');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const copy = screen.getByTestId('webhook-secret-copy');
    expect(copy).toHaveTextContent('Kopieren');
    // Tab from wherever the dialog put the focus until the copy button has it.
    for (let i = 0; i < 5 && document.activeElement !== copy; i++) await user.tab();
    expect(copy).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledWith('whsec_once');
    expect(await navigator.clipboard.readText()).toBe('whsec_once');
    await waitFor(() => expect(copy).toHaveTextContent('Kopiert'));
    const status = screen.getByTestId('webhook-secret-copy-status');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent('Kopiert');
    // The secret stays where the end-to-end journey reads it.
    expect(screen.getByTestId('webhook-secret-value')).toHaveTextContent('whsec_once');
  });

  it('selects the secret and says so when the browser refuses the clipboard', async () => {
    const user = userEvent.setup();
    openCentre({ path: '/alerts?tab=webhooks' });
    await user.type(await screen.findByTestId('webhook-url'), 'https://erp.example.com/in');
    await user.click(screen.getByTestId('webhook-add'));
    const value = await screen.findByTestId('webhook-secret-value');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('denied', 'NotAllowedError'),
    );
    await user.click(screen.getByTestId('webhook-secret-copy'));
    expect(await screen.findByTestId('webhook-secret-copy-status')).toHaveTextContent(
      'Copying is not possible here – the value is selected',
    );
    expect(window.getSelection()?.toString()).toBe(value.textContent);
  });

  it('says why a webhook address was refused', async () => {
    openCentre({
      writes: (method, url) =>
        method === 'POST' && url.startsWith('/api/companies/c1/webhooks')
          ? problem(
              400,
              'Bad Request',
              'A webhook needs an https:// URL.',
              undefined,
              'webhook_https_required',
            )
          : undefined,
    });
    await userEvent.click(await screen.findByTestId('alerts-tab-webhooks'));
    await userEvent.type(await screen.findByTestId('webhook-url'), 'http://erp.example.com/in');
    await userEvent.click(screen.getByTestId('webhook-add'));
    expect(await screen.findByTestId('webhook-url')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('webhook-secret-value')).toBeNull();
  });

  it('changes the member’s own mail setting per kind', async () => {
    const { fetchMock } = openCentre({ role: 'ems' });
    await userEvent.click(await screen.findByTestId('alerts-tab-mail'));
    await userEvent.selectOptions(await screen.findByTestId('mail-low_battery'), 'digest');
    expect(await screen.findByText('Email setting saved')).toBeVisible();
    expect(bodiesOf(fetchMock, 'PATCH', '/api/companies/c1/alert-preferences')).toEqual([
      { low_battery: 'digest' },
    ]);
  });

  it('badges the navigation with the alerts that want attention', async () => {
    openCentre({ path: '/alerts' });
    const nav = await screen.findByTestId('nav-alerts');
    expect(await within(nav).findByTestId('alerts-badge')).toHaveTextContent('2 open alerts');
  });

  it('marks a unit with open alerts in the units table and on its page, leading to its alerts', async () => {
    const unit = testUnit({ id: UNIT, name: 'Aula' });
    const more: FetchHandler = (method, url) => {
      const p = url.split('?')[0] ?? '';
      if (method === 'GET' && p === '/api/companies/c1/alerts/summary') return json(200, summary());
      if (method === 'GET' && p === `/api/companies/c1/units/${UNIT}`) return json(200, unit);
      return undefined;
    };
    const { session } = signIn({ profile: testProfile({ lang: 'en' }), extra: heatingApi([unit], more) });
    const { router } = renderRoutes(routes, '/units', { session, clock: fixedClock(NOW) });
    const marker = await screen.findByTestId(`alert-indicator-${UNIT}`);
    expect(marker).toHaveAccessibleName('2 open alerts');
    expect(marker).toHaveAttribute('href', `/alerts?unitId=${UNIT}`);
    await router.navigate(`/units/${UNIT}`);
    expect(await screen.findByTestId('unit-alert-banner')).toHaveTextContent('2 open alerts for this unit');
  });
});
