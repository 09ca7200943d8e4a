/**
 * German screens show German only ('Invalid invite code.' on setup step 2 and 'The
 * name pattern must contain {n} …' when creating units reached German users). Each screen is
 * rendered in German with the English resources removed — while the stubbed server refuses in English, as it does. The page
 * must contain neither an English-only text of the locale files nor the server's sentence.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILDING_ID, buildingReport, reportsApi } from '../features/reports/report-fixtures.ts';
import { fixedClock } from '../test/clock.ts';
import { registryApi } from '../test/devices-fixtures.ts';
import { resources } from '../test/locales.ts';
import { renderRoutes } from '../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../test/signed-in.ts';
import { heatingApi, testUnit } from '../test/units-fixtures.ts';
import i18n, { setLanguage } from './i18n.ts';
import { routes } from './router.tsx';

/** The screens' clock: relative times, the holidays' year and proposed dates count from it. */
const NOW = new Date('2026-11-24T09:00:00Z');

function strings(obj: unknown): string[] {
  if (typeof obj === 'string') return [obj];
  if (typeof obj !== 'object' || obj === null) return [];
  return Object.values(obj).flatMap(strings);
}

/** Literal runs of English-only texts, long enough to mean something ("Error deleting", …). */
const englishOnly = (() => {
  const german = new Set(Object.values(resources.de ?? {}).flatMap(strings));
  return [
    ...new Set(
      Object.values(resources.en ?? {})
        .flatMap(strings)
        .filter((text) => !german.has(text))
        .flatMap((text) => text.split(/\{\{[^}]*\}\}/))
        .map((part) => part.trim())
        .filter((part) => part.length >= 14 && /\s/.test(part)),
    ),
  ];
})();

const refusal = (status: number, detail: string, code: string, field?: string) =>
  json(status, {
    type: 'about:blank',
    title: status === 404 ? 'Not Found' : 'Bad Request',
    status,
    detail,
    code,
    ...(field ? { errors: [{ field, message: detail, code }] } : {}),
  });

const PATTERN = 'The name pattern must contain {n} for the running number.';
const INVITE = 'Invalid invite code.';

function open(path: string, api: FetchHandler, profile = testProfile({ lang: 'de' })) {
  const { session } = signIn({ profile, extra: api });
  return renderRoutes(routes, path, { session, clock: fixedClock(NOW) });
}

function expectGerman(...serverSentences: string[]) {
  const text = document.body.textContent ?? '';
  expect(englishOnly.filter((english) => text.includes(english))).toEqual([]);
  for (const sentence of serverSentences) expect(text).not.toContain(sentence);
}

describe('German screens', { timeout: 20_000 }, () => {
  beforeAll(() => {
    for (const ns of Object.keys(resources.en ?? {})) i18n.removeResourceBundle('en', ns);
  });
  afterAll(() => {
    for (const [ns, texts] of Object.entries(resources.en ?? {})) i18n.addResourceBundle('en', ns, texts);
  });
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('knows enough English texts to catch one', () => {
    expect(englishOnly).toContain('No entries found');
  });

  it('units: the list and a refused bulk creation', async () => {
    const api: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/companies/c1/units/bulk'
        ? refusal(400, PATTERN, 'unit_pattern_without_n', 'pattern')
        : undefined;
    open('/units', heatingApi([testUnit({ name: 'Aula', setpointSource: 'no_plan' })], api));
    await screen.findByText('Aula');
    await userEvent.click(screen.getByTestId('create-units'));
    // The form is fetched as the dialog opens.
    const pattern = await screen.findByTestId('create-units-pattern');
    await userEvent.clear(pattern);
    await userEvent.type(pattern, 'Raum');
    await userEvent.click(screen.getByTestId('create-units-submit'));
    expect(await screen.findByTestId('create-units-pattern-field-error')).toHaveTextContent(
      'Das Namensmuster muss {n} für die laufende Nummer enthalten.',
    );
    expectGerman(PATTERN);
  });

  it('setup step 2: a refused invite code', async () => {
    const api: FetchHandler = (method, url) =>
      method === 'POST' && url.startsWith('/api/invite/setup/')
        ? refusal(404, INVITE, 'invite_code_invalid')
        : undefined;
    open('/setup/2', api, testProfile({ lang: 'de', company_ids: [] }));
    await userEvent.click(await screen.findByTestId('setup-mode-join'));
    await userEvent.type(screen.getByTestId('setup-invite-code'), 'falsch');
    await userEvent.click(screen.getByTestId('setup-next'));
    expect(await screen.findByTestId('setup-invite-code-field-error')).toHaveTextContent(
      'Ungültiger Einladungscode.',
    );
    expectGerman(INVITE);
  });

  it('closures when empty, and the dialog refusing an end before the start', async () => {
    const api: FetchHandler = (method, url) =>
      method === 'GET' && url.startsWith('/api/companies/c1/closures?')
        ? json(200, { results: [], count: 0, page: 1, size: 10 })
        : undefined;
    open('/closures', heatingApi([], api));
    await screen.findByTestId('closures-empty');
    await userEvent.click(screen.getByTestId('closure-new'));
    const end = await screen.findByTestId('closure-end');
    await userEvent.clear(end);
    await userEvent.type(end, '2020-01-01T10:00');
    await userEvent.click(screen.getByTestId('closure-save'));
    expect(await screen.findByTestId('closure-end-field-error')).toHaveTextContent(
      'Das Ende muss nach dem Beginn liegen.',
    );
    expectGerman();
  });

  it('buildings when empty, and the dialog refusing a short postcode', async () => {
    const api: FetchHandler = (method, url) => {
      const path = url.split('?')[0];
      if (method === 'GET' && path === '/api/holiday-regions')
        return json(200, { results: [{ state: 'BY', regions: [{ code: 'A', name: 'Augsburg' }] }] });
      return undefined;
    };
    open('/buildings', heatingApi([], api));
    await screen.findByTestId('buildings-empty');
    await userEvent.click(screen.getByTestId('building-new'));
    await userEvent.type(await screen.findByTestId('building-postcode'), '123');
    await userEvent.click(screen.getByTestId('building-floor-add'));
    await userEvent.click(screen.getByTestId('building-holidays-closure'));
    await userEvent.click(screen.getByTestId('building-save'));
    expect(await screen.findByTestId('building-postcode-field-error')).toHaveTextContent(
      'Eine Postleitzahl hat fünf Ziffern.',
    );
    expectGerman();
  });

  it('reports: a building with its meters and targets, and a refused share below comfort', async () => {
    // Without days: the chart (uPlot) needs a canvas jsdom does not have.
    open(
      `/reports?month=2026-11&buildingId=${BUILDING_ID}`,
      reportsApi({ [BUILDING_ID]: { ...buildingReport(), days: [] } }),
    );
    await screen.findByTestId('report-kpis');
    const share = await screen.findByTestId('report-settings-max-share');
    await userEvent.clear(share);
    await userEvent.type(share, '150');
    await userEvent.click(screen.getByTestId('report-settings-save'));
    expect(await screen.findByTestId('report-settings-max-share-field-error')).toHaveTextContent(
      'Der max. Anteil unter Komfort darf höchstens 100 % betragen.',
    );
    expectGerman();
  });

  it.each([
    ['/devices', 'devices-empty'],
    ['/gateways', 'gateways-empty'],
  ])('%s when empty', async (path, testid) => {
    open(path, registryApi({}));
    await screen.findByTestId(testid);
    expectGerman();
  });
});
