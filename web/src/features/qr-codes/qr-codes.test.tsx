/** A unit's QR code: enable within the allowance, copy/download, regenerate after confirming; the print sheet. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit } from '../../test/units-fixtures.ts';
import { labelledQrSvg, qrFileName } from './qr-image.ts';

const unit = testUnit({ name: 'Aula' });
const qrUrl = `/api/companies/c1/units/${unit.id}/qr-code`;
const code = (token: string) => ({
  unitId: unit.id,
  unitName: 'Aula',
  token,
  url: `http://localhost/heating-view/${token}`,
  enabledAt: '2026-11-22T10:00:00.000Z',
});

function open(qr: FetchHandler, path = `/units/${unit.id}`) {
  const api: FetchHandler = (method, u, init) => {
    const answer = qr(method, u, init);
    if (answer !== undefined) return answer;
    if (method === 'GET' && u === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
    if (method === 'GET' && u === `/api/companies/c1/units/${unit.id}/plans`)
      return json(200, { results: [] });
    return undefined;
  };
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang: 'en' }),
    extra: heatingApi([unit], api),
  });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

describe('QR code images', () => {
  it("print the unit's name and the link under the code, escaped", async () => {
    const svg = await labelledQrSvg('https://h.example/heating-view/abc', 'Büro <1> & Co');
    expect(svg).toContain('Büro &lt;1&gt; &amp; Co');
    expect(svg).toContain('https://h.example/heating-view/abc');
    expect(new DOMParser().parseFromString(svg, 'image/svg+xml').querySelector('parsererror')).toBeNull();
    expect(qrFileName('Büro 1.01', 'png')).toBe('qr-Buro-1-01.png');
  });
});

describe('unit QR code', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('enables the code and shows its link and the remaining count', async () => {
    let enabled = false;
    const { fetchMock } = open((method, u) => {
      if (u !== qrUrl) return undefined;
      if (method === 'POST') enabled = true;
      return json(200, {
        unlimited: false,
        allowance: 3,
        used: enabled ? 1 : 0,
        remaining: enabled ? 2 : 3,
        code: enabled ? code('tok1') : null,
      });
    });
    expect(await screen.findByTestId('qr-remaining')).toHaveTextContent('3 QR codes remaining');
    await userEvent.click(screen.getByTestId('qr-enable'));
    expect(await screen.findByTestId('qr-link')).toHaveTextContent('http://localhost/heating-view/tok1');
    expect(screen.getByTestId('qr-remaining')).toHaveTextContent('2 QR codes remaining');
    expect(
      fetchMock.mock.calls.some(([u, init]) => String(u).endsWith('/qr-code') && init?.method === 'POST'),
    ).toBe(true);
  });

  it('says "unlimited" when the server bills nothing, instead of a blank count', async () => {
    open((method, u) =>
      u === qrUrl && method === 'GET'
        ? json(200, { unlimited: true, allowance: null, used: 4, remaining: null, code: null })
        : undefined,
    );
    expect(await screen.findByTestId('qr-remaining')).toHaveTextContent('QR codes: unlimited');
    expect(screen.getByTestId('qr-enable')).toBeEnabled();
  });

  it('says that QR codes come with licences before any was bought, instead of "all given away"', async () => {
    open((method, u) =>
      u === qrUrl && method === 'GET'
        ? json(200, { unlimited: false, allowance: 0, used: 0, remaining: 0, code: null })
        : undefined,
    );
    expect(
      await screen.findByText(
        'QR codes come with licences: each licensed device allows one QR code. Buy licences under Settings → Billing.',
      ),
    ).toBeVisible();
    expect(screen.queryByText(/QR codes remaining/)).toBeNull();
    expect(screen.queryByText(/All QR codes are/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Enable QR code' })).toBeDisabled();
  });

  it('cannot enable a code when none remains, and says why', async () => {
    open((method, u) =>
      u === qrUrl && method === 'GET'
        ? json(200, { allowance: 1, used: 1, remaining: 0, code: null })
        : undefined,
    );
    expect(await screen.findByTestId('qr-enable')).toBeDisabled();
    expect(screen.getByText(/All QR codes are in use/)).toBeVisible();
  });

  it('regenerates only after confirming, and reports a refusal', async () => {
    let token = 'tok1';
    open((method, u) => {
      if (u === qrUrl && method === 'GET')
        return json(200, { allowance: 1, used: 1, remaining: 0, code: code(token) });
      if (u === `${qrUrl}/regenerate`) {
        token = 'tok2';
        return json(200, { allowance: 1, used: 1, remaining: 0, code: code(token) });
      }
      if (u === qrUrl && method === 'DELETE') return problem(409, 'Conflict', 'Something went wrong.');
      return undefined;
    });
    await userEvent.click(await screen.findByTestId('qr-regenerate-open'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/old code and link stop working at once/)).toBeVisible();
    await userEvent.click(within(dialog).getByTestId('qr-regenerate-confirm'));
    expect(await screen.findByText('http://localhost/heating-view/tok2')).toBeVisible();
    await userEvent.click(screen.getByTestId('qr-disable-open'));
    await userEvent.click(await screen.findByTestId('qr-disable-confirm'));
    expect(await screen.findByText('The QR code could not be changed')).toBeVisible();
  });

  it('lists every enabled code on the print sheet', async () => {
    open(
      (method, u) =>
        method === 'GET' && u === '/api/companies/c1/qr-codes'
          ? json(200, {
              allowance: 2,
              used: 2,
              remaining: 0,
              results: [code('a'), { ...code('b'), unitId: testUnit().id, unitName: 'Bibliothek' }],
            })
          : undefined,
      '/units/qr-sheet',
    );
    const sheet = await screen.findByTestId('qr-sheet');
    expect(await within(sheet).findByAltText('Bibliothek')).toBeVisible();
    expect(within(sheet).getAllByRole('img')).toHaveLength(2);
    expect(screen.getByTestId('qr-sheet-print')).toBeEnabled();
  });
});
