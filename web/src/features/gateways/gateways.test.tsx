/** Gateways screen (registry): online state, last seen, add with EUI check, delete. */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { registryApi, testGateway } from '../../test/devices-fixtures.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

/** The screen's clock: last seen times are shown relative to it. */
const NOW = new Date('2026-11-26T10:00:00Z');

function open(api: FetchHandler, lang: 'de' | 'en' = 'en') {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/gateways', { session, clock: fixedClock(NOW) }), fetchMock };
}

describe('gateways screen', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows each gateway online or offline with its last seen time', async () => {
    const live = testGateway({ online: true, lastSeen: new Date(NOW.getTime() - 20_000).toISOString() });
    const dead = testGateway({ online: false });
    open(registryApi({ gateways: [live, dead] }));
    expect(await screen.findByTestId(`gateway-state-${live.id}`)).toHaveTextContent('Online');
    expect(screen.getByTestId(`gateway-state-${dead.id}`)).toHaveTextContent('Offline');
    expect(screen.getByTestId(`gateway-last-seen-${live.id}`)).toHaveTextContent('20 sec. ago');
    expect(screen.getByTestId(`gateway-last-seen-${dead.id}`)).toHaveTextContent('Never');
  });

  it('adds a gateway only with a name and a 16-hex EUI, then refreshes the list', async () => {
    const added = testGateway({ name: 'Dach', gatewayEui: 'b827ebfffe000001' });
    let gateways: ReturnType<typeof testGateway>[] = [];
    const api: FetchHandler = (method, url) => {
      if (method === 'POST' && url === '/api/companies/c1/gateways') {
        gateways = [added];
        return json(201, added);
      }
      if (method === 'GET' && url.startsWith('/api/companies/c1/gateways?')) {
        return json(200, { results: gateways, count: gateways.length, page: 1, size: 10 });
      }
      return undefined;
    };
    const { fetchMock } = open(registryApi({}, api));
    await userEvent.click(await screen.findByTestId('add-gateway'));
    await userEvent.type(screen.getByTestId('add-gateway-eui'), 'b827ebfffe00');
    await userEvent.click(screen.getByTestId('add-gateway-submit'));
    expect(await screen.findByTestId('add-gateway-name-field-error')).toHaveTextContent(
      'The name is required.',
    );
    expect(await screen.findByTestId('add-gateway-eui-field-error')).toHaveTextContent(
      'A gateway EUI has exactly 16 hex digits.',
    );
    await userEvent.type(screen.getByTestId('add-gateway-name'), 'Dach');
    await userEvent.type(screen.getByTestId('add-gateway-eui'), '0001');
    await userEvent.click(screen.getByTestId('add-gateway-submit'));
    expect(await screen.findByTestId('toast-gateway-added')).toHaveTextContent(
      'Gateway added“Dach” (b827ebfffe000001)',
    );
    expect(await screen.findByTestId(`gateway-state-${added.id}`)).toBeInTheDocument();
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { name: 'Dach', gatewayEui: 'b827ebfffe000001' },
    ]);
  });

  it('deletes a gateway after confirming and says so', async () => {
    const gateway = testGateway({ name: 'Keller' });
    const del: FetchHandler = (method) => (method === 'DELETE' ? json(204) : undefined);
    const { fetchMock } = open(registryApi({ gateways: [gateway] }, del));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete “Keller”' }));
    expect(screen.getByTestId(`gateway-delete-${gateway.id}`)).toHaveTextContent(gateway.gatewayEui);
    await userEvent.click(screen.getByTestId(`gateway-delete-${gateway.id}-confirm`));
    expect(await screen.findByTestId('toast-gateway-deleted')).toHaveTextContent('Gateway deleted');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url]) => url)).toEqual([
      `/api/companies/c1/gateways/${gateway.id}`,
    ]);
  });

  it('shows an invitation when the company has no gateways', async () => {
    open(registryApi({}));
    expect(await screen.findByTestId('gateways-empty')).toHaveTextContent('No gateways yet');
  });

  it('names a gateway called "Gateway Dach" without doubling the word, in German too', async () => {
    await setLanguage('de');
    const added = testGateway({ name: 'Gateway Dach', gatewayEui: 'b827ebfffe000001' });
    const api: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/companies/c1/gateways' ? json(201, added) : undefined;
    open(registryApi({ gateways: [added] }, api), 'de');
    const deleteButton = await screen.findByTestId(`gateway-delete-${added.id}-open`);
    expect(deleteButton).toHaveAccessibleName('„Gateway Dach“ löschen');
    await userEvent.click(screen.getByTestId('add-gateway'));
    await userEvent.type(screen.getByTestId('add-gateway-name'), 'Gateway Dach');
    await userEvent.type(screen.getByTestId('add-gateway-eui'), 'b827ebfffe000001');
    await userEvent.click(screen.getByTestId('add-gateway-submit'));
    const toast = await screen.findByTestId('toast-gateway-added');
    expect(toast).toHaveTextContent('Gateway hinzugefügt');
    expect(toast).toHaveTextContent('„Gateway Dach“');
    expect(toast.textContent).not.toMatch(/Gateway\s*„?Gateway/);
  });
});
