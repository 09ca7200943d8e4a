import { describe, expect, it } from 'vitest';
import { parseEnv } from './env-schema.ts';

describe('browser settings', () => {
  it('defaults to the spec values', () => {
    expect(parseEnv({})).toEqual({
      loginErrorPath: '/',
      silentLoginTimeoutMs: 60_000,
      useRefreshTokens: true,
      useRefreshTokensFallback: true,
    });
  });

  it('reads configured values', () => {
    expect(
      parseEnv({
        VITE_LOGIN_ERROR_PATH: '/maintenance',
        VITE_SILENT_LOGIN_TIMEOUT_S: '15',
        VITE_USE_REFRESH_TOKENS_FALLBACK: 'false',
      }),
    ).toMatchObject({
      loginErrorPath: '/maintenance',
      silentLoginTimeoutMs: 15_000,
      useRefreshTokensFallback: false,
    });
  });

  it('rejects a bad value naming the variable', () => {
    expect(() => parseEnv({ VITE_SILENT_LOGIN_TIMEOUT_S: 'soon' })).toThrow(/VITE_SILENT_LOGIN_TIMEOUT_S/);
  });
});
