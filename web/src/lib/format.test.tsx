/**
 * Dates read the same on every German screen: day.month.full year ("26.11.2026"), never the
 * two-digit year `dateStyle: 'short'` writes ("26.11.26"), which the alert centre showed next to
 * the full dates of the other screens.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Alert } from '@heizplan/contracts/alerts';
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../app/i18n.ts';
import { useAlertText } from '../features/alerts/alert-text.ts';
import { useDay } from '../features/billing/format.ts';
import { formatDateTime, formatDay, formatWeekday } from './format.ts';

const SRC = path.resolve(import.meta.dirname, '..');
const at = '2026-11-26T05:55:10.000Z';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe('German dates', () => {
  it('carry the full year in German and stay English in English', () => {
    expect(formatDay(at, 'de', 'Europe/Berlin')).toBe('26.11.2026');
    expect(formatDateTime(at, 'de', { timeZone: 'Europe/Berlin' })).toBe('26.11.2026, 06:55');
    expect(formatDateTime(at, 'de', { timeZone: 'Europe/Berlin', seconds: true })).toBe(
      '26.11.2026, 06:55:10',
    );
    expect(formatWeekday(at, 'de', 'Europe/Berlin')).toBe('Do., 26.11.');
    expect(formatDay(at, 'en', 'Europe/Berlin')).toBe('Nov 26, 2026');
    expect(formatWeekday(at, 'en', 'Europe/Berlin')).toBe('Thu, 11/26');
  });

  it('read day.month.full year in the alert texts and on billing', async () => {
    const before = i18n.language;
    await i18n.changeLanguage('de');
    try {
      const alert = {
        kind: 'device_offline',
        openedAt: at,
        details: { lastSeen: at },
        code: null,
      } as unknown as Alert;
      const { result } = renderHook(() => ({ alerts: useAlertText(), day: useDay() }));
      expect(result.current.alerts.hint(alert)).toMatch(/Seit 26\.11\.2026, \d\d:55 kein Funksignal/);
      expect(result.current.alerts.time(at)).toMatch(/^26\.11\.2026, \d\d:55$/);
      expect(result.current.day(at)).toBe('26.11.2026');
    } finally {
      await i18n.changeLanguage(before);
    }
  });

  it('are never written with a two-digit year anywhere in the app', () => {
    const offenders = sources(SRC).filter((file) =>
      /dateStyle:\s*'short'|year:\s*'2-digit'|toLocaleDateString\(/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
