/** The public page's language choice and its cold-radiator help, from the live values (spec §1). */
import type { PublicHeatingView } from '@heizplan/contracts/public-heating-view';
import { describe, expect, it } from 'vitest';
import { pickLanguage, text } from './dictionary.ts';
import { evaluateHelp } from './help.ts';
import { stepSetpoint } from './stepping.ts';

const view = (over: Partial<PublicHeatingView> = {}): PublicHeatingView => ({
  unitName: 'Büro 1',
  roomTemperature: 18,
  setpoint: 21,
  valveOpening: 40,
  lastReadingAt: '2026-11-22T10:00:00.000Z',
  wallControlOverride: false,
  wallControlReported: false,
  deliveryPending: false,
  setpointSource: 'regular_plan',
  min: 16,
  max: 24,
  step: 0.5,
  paused: false,
  occupantChange: null,
  nextChange: { at: '2026-11-22T21:00:00.000Z', setpoint: 17 },
  timeZone: 'Europe/Berlin',
  ...over,
});
const format = { celsius: (v: number) => `${v.toFixed(1)} °C`, time: () => '22:00' };

describe('language', () => {
  it('is German unless the browser puts English before German', () => {
    expect(pickLanguage(['en-GB', 'de'])).toBe('en');
    expect(pickLanguage(['de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['fr-FR'])).toBe('de');
    expect(pickLanguage([])).toBe('de');
  });

  it('fills placeholders', () => {
    expect(text('en', 'holdsUntil', { time: '22:00' })).toBe('Your change holds until 22:00.');
    expect(text('de', 'tooMany', { seconds: 30 })).toBe(
      'Zu viele Anfragen. Bitte in 30 Sekunden erneut versuchen.',
    );
  });
});

describe('cold radiator help', () => {
  it('says the radiator should heat when the gap exceeds 1.5 °C and the valve is open', () => {
    const help = evaluateHelp(view(), format);
    expect(help.checks.map((c) => c.state)).toEqual(['ok', 'ok', 'ok']);
    expect(help.checks[0]?.values.gap).toBe('3.0 °C');
    expect(help.checks[2]).toMatchObject({
      key: 'planNext',
      values: { setpoint: '21.0 °C', next: '17.0 °C', time: '22:00' },
    });
    expect(help.verdict).toBe('verdictHeat');
  });

  it('says there is no need to heat at exactly 1.5 °C gap', () => {
    const help = evaluateHelp(view({ roomTemperature: 19.5 }), format);
    expect(help.checks[0]).toMatchObject({ state: 'fail', key: 'gapLow' });
    expect(help.verdict).toBe('verdictNoNeed');
  });

  it('points at the valve when the gap is large but the valve is closed', () => {
    const help = evaluateHelp(view({ valveOpening: 0 }), format);
    expect(help.checks[1]).toMatchObject({ state: 'fail', key: 'valveClosed' });
    expect(help.verdict).toBe('verdictValve');
  });

  it('asks for patience, then the administrator, while readings are missing', () => {
    const help = evaluateHelp(view({ roomTemperature: null, valveOpening: null, nextChange: null }), format);
    expect(help.checks.map((c) => c.state)).toEqual(['unknown', 'unknown', 'ok']);
    expect(help.checks[2]?.key).toBe('planNow');
    expect(help.verdict).toBe('verdictUnknown');
  });
});

describe('closure help', () => {
  it('says a closure sets the setpoint, never the heating plan', () => {
    const help = evaluateHelp(view({ setpointSource: 'closure', setpoint: 8, roomTemperature: 12 }), format);
    expect(help.checks[2]).toMatchObject({ key: 'closureNext', values: { setpoint: '8.0 °C' } });
    expect(text('de', 'closureNow', { setpoint: '8,0 °C' })).toBe('Eine Schließzeit gibt jetzt 8,0 °C vor.');
  });

  it('says a booking of the room sets the setpoint, never the heating plan', () => {
    const help = evaluateHelp(view({ setpointSource: 'booking', setpoint: 21, roomTemperature: 18 }), format);
    expect(help.checks[2]).toMatchObject({ key: 'bookingNext', values: { setpoint: '21.0 °C' } });
    expect(text('de', 'bookingNow', { setpoint: '21,0 °C' })).toBe(
      'Eine Buchung dieses Raums gibt jetzt 21,0 °C vor.',
    );
  });
});

describe('−/+ stepping', () => {
  const limits = { min: 18, max: 23, step: 0.5 };
  it('steps by 0.5 °C inside the range and stops at its ends', () => {
    expect(stepSetpoint(20, 1, limits)).toBe(20.5);
    expect(stepSetpoint(20, -1, limits)).toBe(19.5);
    expect(stepSetpoint(23, 1, limits)).toBeNull();
    expect(stepSetpoint(18, -1, limits)).toBeNull();
  });

  it('goes to the nearest allowed value from outside the range, and no further out', () => {
    expect(stepSetpoint(17, 1, limits)).toBe(18);
    expect(stepSetpoint(17, -1, limits)).toBeNull();
    expect(stepSetpoint(24.5, -1, limits)).toBe(23);
    expect(stepSetpoint(24.5, 1, limits)).toBeNull();
  });

  it('snaps a setpoint off the grid onto it', () => {
    expect(stepSetpoint(20.3, 1, limits)).toBe(20.5);
    expect(stepSetpoint(20.3, -1, limits)).toBe(20);
  });
});

describe('gap wording', () => {
  it('says the room is warmer, by how much, when it is above the setpoint', () => {
    const help = evaluateHelp(view({ setpoint: 17, roomTemperature: 19.6 }), format);
    expect(help.checks[0]).toMatchObject({ state: 'fail', key: 'gapAbove', values: { gap: '2.6 °C' } });
    expect(help.verdict).toBe('verdictNoNeed');
  });

  it('says the room is at the setpoint when the shown gap is 0.0 °C', () => {
    expect(evaluateHelp(view({ setpoint: 21, roomTemperature: 20.98 }), format).checks[0]?.key).toBe(
      'gapNone',
    );
  });
});
