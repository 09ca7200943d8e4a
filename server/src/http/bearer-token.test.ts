import { describe, expect, it } from 'vitest';
import { bearerTokenMatches } from './bearer-token.ts';

const TOKEN = 'operator-token-0123456789abcdef';

describe('bearerTokenMatches', () => {
  it('accepts exactly `Bearer <token>`, the scheme in any case', () => {
    expect(bearerTokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerTokenMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerTokenMatches(`BEARER  ${TOKEN}`, TOKEN)).toBe(true);
  });

  it('refuses another token, whatever its length', () => {
    expect(bearerTokenMatches(`Bearer ${TOKEN.slice(0, -1)}x`, TOKEN)).toBe(false);
    expect(bearerTokenMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(bearerTokenMatches(`Bearer ${TOKEN}0`, TOKEN)).toBe(false);
    expect(bearerTokenMatches('Bearer x', TOKEN)).toBe(false);
  });

  it('refuses a missing header, another scheme, a bare token and trailing words', () => {
    expect(bearerTokenMatches(undefined, TOKEN)).toBe(false);
    expect(bearerTokenMatches('', TOKEN)).toBe(false);
    expect(bearerTokenMatches('Bearer ', TOKEN)).toBe(false);
    expect(bearerTokenMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerTokenMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerTokenMatches(`Bearer ${TOKEN} extra`, TOKEN)).toBe(false);
  });

  it('never matches an empty expected token', () => {
    expect(bearerTokenMatches('Bearer ', '')).toBe(false);
    expect(bearerTokenMatches(undefined, '')).toBe(false);
  });
});
