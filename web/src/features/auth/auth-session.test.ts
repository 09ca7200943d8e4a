import { ErrorResponse } from 'oidc-client-ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  freshToken,
  getCurrentCompanyId,
  setCurrentCompanyId,
  storeToken,
} from '../../lib/client-storage.ts';
import { isLoginReturn, safeTarget } from './auth-session.ts';
import { fakeManager, sessionWith, testUser } from './test-manager.ts';

describe('auth session', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });

  it('answers from the cached token without asking the provider', async () => {
    const manager = fakeManager(testUser());
    storeToken('cached', Date.now() / 1000 + 3600);
    await expect(sessionWith(manager).getAccessToken()).resolves.toBe('cached');
    expect(manager.signinSilent).not.toHaveBeenCalled();
  });

  it('renews with the refresh token when one is stored', async () => {
    const manager = fakeManager(testUser({ refresh_token: 'r1' }));
    await expect(sessionWith(manager).getAccessToken()).resolves.toBe('access-1');
    expect(manager.signinSilent).toHaveBeenCalledWith();
    expect(freshToken()).toBe('access-1');
  });

  it('falls back to the hidden frame when refresh tokens are on but none is stored', async () => {
    const manager = fakeManager(testUser());
    await expect(sessionWith(manager).getAccessToken()).resolves.toBe('access-1');
    expect(manager.signinSilent).toHaveBeenCalledWith({ forceIframeAuth: true });
  });

  it('does not renew without a refresh token when the fallback is off', async () => {
    const manager = fakeManager(testUser());
    const session = sessionWith(manager, { useRefreshTokensFallback: false });
    await expect(session.getAccessToken()).resolves.toBeNull();
    expect(manager.signinSilent).not.toHaveBeenCalled();
  });

  it('uses the hidden frame when refresh tokens are off', async () => {
    const manager = fakeManager(testUser({ refresh_token: 'r1' }));
    await sessionWith(manager, { useRefreshTokens: false }).getAccessToken();
    expect(manager.signinSilent).toHaveBeenCalledWith({ forceIframeAuth: true });
  });

  it('clears the local session on login_required, without a redirect', async () => {
    const manager = fakeManager(testUser());
    manager.signinSilent.mockRejectedValue(new ErrorResponse({ error: 'login_required' }));
    await expect(sessionWith(manager).getAccessToken()).resolves.toBeNull();
    expect(manager.removeUser).toHaveBeenCalled();
    expect(manager.signinRedirect).not.toHaveBeenCalled();
  });

  it('asks for no silent login when nobody ever signed in here', async () => {
    const manager = fakeManager(null);
    await expect(sessionWith(manager).getAccessToken()).resolves.toBeNull();
    expect(manager.signinSilent).not.toHaveBeenCalled();
  });

  it('renews once for concurrent callers', async () => {
    const manager = fakeManager(testUser({ refresh_token: 'r1' }));
    const session = sessionWith(manager);
    await Promise.all([session.getAccessToken(), session.getAccessToken()]);
    expect(manager.signinSilent).toHaveBeenCalledOnce();
  });

  it('logs out locally and at the provider with the id token as hint', async () => {
    const manager = fakeManager(testUser());
    storeToken('cached', Date.now() / 1000 + 3600);
    setCurrentCompanyId('c1');
    await sessionWith(manager).logout();
    expect(freshToken()).toBeNull();
    expect(getCurrentCompanyId()).toBeNull();
    expect(manager.removeUser).toHaveBeenCalled();
    expect(manager.signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'id-1' });
  });

  it('sends the login with the return target in the state and the UI language', async () => {
    const manager = fakeManager();
    await sessionWith(manager).login('/units/7/log?x=1', 'de');
    expect(manager.signinRedirect).toHaveBeenCalledWith({
      state: { returnTo: '/units/7/log?x=1' },
      ui_locales: 'de',
    });
  });

  it.each([
    ['/units?a=1', '/units?a=1'],
    ['//evil.example/x', '/'],
    ['https://evil.example/', '/'],
    [undefined, '/'],
  ])('follows only app paths after login: %s → %s', (target, expected) => {
    expect(safeTarget(target)).toBe(expected);
  });

  it.each([
    ['code=a&state=s', true],
    ['error=access_denied&state=s', true],
    ['code=a', false],
    ['state=s', false],
    ['', false],
  ])('recognises a login return in ?%s: %s', (search, expected) => {
    expect(isLoginReturn(new URLSearchParams(search))).toBe(expected);
  });
});
