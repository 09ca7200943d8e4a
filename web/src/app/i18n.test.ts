import { describe, expect, it } from 'vitest';
import { resources } from '../test/locales.ts';

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('locales', () => {
  it('German and English have the same namespaces and keys', () => {
    expect(Object.keys(resources.de ?? {}).sort()).toEqual(Object.keys(resources.en ?? {}).sort());
    for (const ns of Object.keys(resources.de ?? {})) {
      expect(keys(resources.de?.[ns]).sort(), `namespace ${ns}`).toEqual(keys(resources.en?.[ns]).sort());
    }
  });
});

function strings(obj: unknown, prefix = ''): [string, string][] {
  if (typeof obj === 'string') return [[prefix, obj]];
  if (typeof obj !== 'object' || obj === null) return [];
  return Object.entries(obj).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k));
}

describe('German texts', () => {
  // One form of address, "Sie"; "du" had crept into the devices and assign screens.
  const duPronoun = /\b(du|dich|dir|dein\w*|euch|euer\w*|eure\w*)\b/i;
  // The informal imperatives those texts used ("Scanne", "gib … ein", "Bitte wähle").
  const duImperative =
    /(^|[.!?:]\s+|\b(oder|und|Bitte)\s+)(Scanne|scanne|Halte|Gib|gib|Füge|Richte|Erlaube|wähle|Wähle|Kündige)\b/;

  it('address the reader with "Sie", never "du"', () => {
    const informal = Object.entries(resources.de ?? {}).flatMap(([ns, texts]) =>
      strings(texts)
        .filter(([, text]) => duPronoun.test(text) || duImperative.test(text))
        .map(([key, text]) => `${ns}:${key} ${text}`),
    );
    expect(informal).toEqual([]);
  });
});
