/**
 * Later list exports (decision 0060): the devices screen's network server files (The Things
 * Stack, ChirpStack) with their hint that no AppKey leaves Heizplan, the groups screen's plans
 * download and the heating log screen's window download, whose refusal is explained.
 */
import type { LogPage } from '@heizplan/contracts/heating';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../test/clock.ts';
import { registryApi, testDevice } from '../../test/devices-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';
import { setLanguage } from '../i18n.ts';
import { routes } from '../router.tsx';

/** The screens' clock: the log download's window ends on its day. */
const NOW = new Date('2026-11-24T09:00:00Z');

const csv = () => new Response('x\n', { status: 200, headers: { 'content-type': 'text/csv' } });

function open(path: string, api: FetchHandler, lang: 'de' | 'en') {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, path, { session, clock: fixedClock(NOW) }), fetchMock };
}

/** Catches the saved file's name and the export request's query. */
function captureDownload(fetchMock: ReturnType<typeof open>['fetchMock'], path: string) {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return {
    saved,
    query: () => {
      const asked = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.includes(path));
      return Object.fromEntries(new URL(asked ?? '', 'http://app').searchParams);
    },
  };
}

describe('list exports', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('offers The Things Stack and ChirpStack files on the devices screen, saying no AppKey is in them', async () => {
    await setLanguage('de');
    const { fetchMock } = open(
      '/devices',
      registryApi({ devices: [testDevice({ id: '70b3d52dd3000001' })] }, (_method, url) =>
        url.startsWith('/api/companies/c1/devices/export') ? csv() : undefined,
      ),
      'de',
    );
    await screen.findByText('70b3d52dd3000001');
    expect(screen.getByTestId('devices-export-tts')).toHaveTextContent('The Things Stack (CSV)');
    expect(screen.getByTestId('devices-export-chirpstack')).toHaveTextContent('ChirpStack (CSV)');
    expect(screen.getByTestId('devices-export-hint')).toHaveTextContent(
      'Zum Anlegen der Geräte im Netzwerkserver. AppKeys gibt Heizplan nie heraus',
    );
    const download = captureDownload(fetchMock, '/devices/export');
    await userEvent.selectOptions(screen.getByTestId('devices-model-filter'), 'mclimate-vicki');
    await userEvent.click(screen.getByTestId('devices-export-tts'));
    await vi.waitFor(() => expect(download.saved).toEqual(['geraete-tts.csv']));
    expect(download.query()).toMatchObject({ format: 'tts', model: 'mclimate-vicki' });
  });

  it('downloads every heating plan from the groups screen', async () => {
    await setLanguage('en');
    const { fetchMock } = open(
      '/groups',
      heatingApi([], (_method, url) =>
        url.startsWith('/api/companies/c1/plans/export') ? csv() : undefined,
      ),
      'en',
    );
    const button = await screen.findByTestId('plans-export-xlsx');
    expect(button).toHaveTextContent('Plans: Excel file (XLSX)');
    expect(screen.getByTestId('plans-export-excel')).toHaveTextContent('Plans: CSV for Excel');
    const download = captureDownload(fetchMock, '/plans/export');
    await userEvent.click(button);
    await vi.waitFor(() => expect(download.saved).toEqual(['plans.xlsx']));
    expect(download.query()).toEqual({ format: 'xlsx', lang: 'en' });
  });

  describe('heating log screen', () => {
    const unit = testUnit({ name: 'Aula' });
    const empty: LogPage = { results: [], nextCursor: null };
    const openLog = (exportAnswer: () => Response) =>
      open(
        `/units/${unit.id}/log`,
        heatingApi([unit], (method, url) => {
          if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
          if (method === 'GET' && url.startsWith(`/api/companies/c1/units/${unit.id}/log`))
            return json(200, empty);
          if (url.startsWith('/api/companies/c1/heating-log/export')) return exportAnswer();
          return undefined;
        }),
        'de',
      );

    beforeEach(() => setLanguage('de'));

    it("downloads the unit's log of the chosen days, from midnight to midnight in the company's zone", async () => {
      const { fetchMock } = openLog(csv);
      fireEvent.change(await screen.findByTestId('log-download-from'), { target: { value: '2026-10-01' } });
      fireEvent.change(screen.getByTestId('log-download-to'), { target: { value: '2026-10-31' } });
      expect(screen.getByTestId('log-download-excel')).toHaveTextContent('CSV für Excel');
      const download = captureDownload(fetchMock, '/heating-log/export');
      await userEvent.click(screen.getByTestId('log-download-excel'));
      await vi.waitFor(() => expect(download.saved).toEqual(['heizverlauf.csv']));
      // Berlin: summer time on 1 October, winter time after 25 October.
      expect(download.query()).toEqual({
        unitId: unit.id,
        from: '2026-10-01T00:00:00.000+02:00',
        to: '2026-11-01T00:00:00.000+01:00',
        format: 'excel',
        lang: 'de',
      });
    });

    it('explains a window the server refuses, and offers nothing without both dates', async () => {
      openLog(() =>
        json(400, {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          code: 'export_range_too_long',
          params: { days: 366 },
        }),
      );
      await userEvent.click(await screen.findByTestId('log-download-xlsx'));
      expect(await screen.findByTestId('toast-log-download-error')).toHaveTextContent(
        'Ein Export umfasst höchstens 366 Tage. Wählen Sie einen kürzeren Zeitraum.',
      );
      fireEvent.change(screen.getByTestId('log-download-to'), { target: { value: '' } });
      expect(screen.getByTestId('log-download-xlsx')).toBeDisabled();
    });
  });
});
