/**
 * Every machine-readable reason the server can send (`PROBLEM_CODES`) has a text in both
 * languages, so no server problem reaches a screen as the server's English sentence.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROBLEM_CODES } from '@heizplan/contracts/problem-codes';
import { describe, expect, it } from 'vitest';
import { resources } from '../test/locales.ts';

const SRC = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe('problem codes', () => {
  it.each(['de', 'en'])('are all translated in %s, and nothing else is', (lng) => {
    const codes = (resources[lng]?.problems?.codes ?? {}) as Record<string, string>;
    expect(Object.keys(codes).sort()).toEqual([...PROBLEM_CODES].sort());
  });

  it('have short field texts only for known codes, in both languages', () => {
    const de = Object.keys((resources.de?.problems?.fieldCodes ?? {}) as object).sort();
    const en = Object.keys((resources.en?.problems?.fieldCodes ?? {}) as object).sort();
    expect(de).toEqual(en);
    for (const code of de) expect(PROBLEM_CODES).toContain(code);
  });

  it('use the same parameters in German and English', () => {
    const de = resources.de?.problems?.codes as Record<string, string>;
    const en = resources.en?.problems?.codes as Record<string, string>;
    const params = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const code of PROBLEM_CODES) expect(params(de[code] ?? ''), code).toEqual(params(en[code] ?? ''));
  });
});

/**
 * The server's English sentences (`detail`, field `message`) must not reach a screen: a German
 * user saw 'Invalid invite code.' and 'The name pattern must contain {n} …'. Screens
 * go through lib/problem-message.ts, which translates codes; this finds any that read the
 * English text themselves.
 */
describe('server sentences on screens', () => {
  it('are read only by the api client and the problem translator', () => {
    // login-errors.ts classifies the OIDC library's error by its text and shows none of it;
    // error-reporting.ts sends errors' texts to Sentry or the server's log, never to a screen;
    // the form layer shows react-hook-form's messages, which it words itself (codes, limits).
    const allowed = new Set([
      'lib/api-client.ts',
      'lib/problem-message.ts',
      'components/ui/form.tsx',
      'features/auth/login-errors.ts',
      'lib/error-reporting.ts',
    ]);
    const readers = sources(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => !allowed.has(file))
      .filter((file) =>
        /\.detail\b|(?<!problems)\.message\b|serverMessage|serverFieldError/.test(
          readFileSync(path.join(SRC, file), 'utf8'),
        ),
      );
    expect(readers).toEqual([]);
  });
});
