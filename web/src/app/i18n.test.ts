import { describe, expect, it } from 'vitest';
import { resources } from './i18n.ts';

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
