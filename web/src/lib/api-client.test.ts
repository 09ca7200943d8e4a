import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, companyPath, configureApiAuth } from './api-client.ts';
import { freshToken, setCurrentCompanyId, storeToken, TOKEN_CACHE_MS } from './client-storage.ts';

function jsonResponse(status: number, body: unknown, type = 'application/json') {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
}

describe('api client', () => {
  const onUnauthorized = vi.fn();
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    localStorage.clear();
    onUnauthorized.mockReset();
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    configureApiAuth({ getAccessToken: async () => 'tok-1', onUnauthorized });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the bearer token and query, and returns the JSON body', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 'u1' }));
    await expect(api.post('/me/language', { query: { lang: 'de', skip: undefined } })).resolves.toEqual({
      id: 'u1',
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/me/language?lang=de');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
  });

  it('turns problem+json into an ApiError with detail and field errors', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        400,
        {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'Invalid body.',
          errors: [{ field: 'email', message: 'Invalid email' }],
        },
        'application/problem+json',
      ),
    );
    const error = await api.put('/me/', { body: { name: 'a', email: 'b' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, detail: 'Invalid body.' });
    expect((error as ApiError).errors).toEqual([{ field: 'email', message: 'Invalid email' }]);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('starts a new login on 401', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { type: 'about:blank', title: 'Unauthorized', status: 401 }),
    );
    await expect(api.get('/me/')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not call the API without a token, and asks for a login instead', async () => {
    configureApiAuth({ getAccessToken: async () => null, onUnauthorized });
    await expect(api.get('/me/')).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('calls public endpoints without a token', async () => {
    configureApiAuth({ getAccessToken: async () => null, onUnauthorized });
    fetchMock.mockResolvedValue(jsonResponse(200, { issuer: 'x' }));
    await api.get('/public/auth-config', { authenticated: false });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('returns undefined for 204 and keeps the status of a non-JSON failure', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(api.delete('/invite/x')).resolves.toBeUndefined();
    fetchMock.mockResolvedValueOnce(new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(api.get('/me/')).rejects.toMatchObject({ status: 502 });
  });

  it('builds company paths from the current company and refuses without one', () => {
    expect(() => companyPath('/units')).toThrow(/No current company/);
    setCurrentCompanyId('c-1');
    expect(companyPath('/units')).toBe('/companies/c-1/units');
  });
});

describe('token cache', () => {
  beforeEach(() => localStorage.clear());

  it('treats a token as expired 60 s early', () => {
    const now = 1_000_000_000_000;
    storeToken('t', now / 1000 + 120, now);
    expect(freshToken(now + 59_000)).toBe('t');
    expect(freshToken(now + 60_000)).toBeNull();
  });

  it('keeps a long-lived token at most 24 h', () => {
    const now = 1_000_000_000_000;
    storeToken('t', now / 1000 + 7 * 24 * 3600, now);
    expect(freshToken(now + TOKEN_CACHE_MS - 61_000)).toBe('t');
    expect(freshToken(now + TOKEN_CACHE_MS - 59_000)).toBeNull();
  });
});
