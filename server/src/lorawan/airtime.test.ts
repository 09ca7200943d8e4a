import { describe, expect, it } from 'vitest';
import {
  airtimeBudgetMs,
  fittingIntervalMinutes,
  frameAirtimeMs,
  maxPayloadBytes,
  timeOnAirMs,
  uplinkAirtimePerDayMs,
} from './airtime.ts';

describe('time on air (Semtech AN1200.13)', () => {
  it('matches the reference figures for a 22-byte frame at 125 kHz', () => {
    expect(Math.round(timeOnAirMs(7, 22))).toBe(57);
    expect(Math.round(timeOnAirMs(10, 22))).toBe(371);
    expect(Math.round(timeOnAirMs(12, 22))).toBe(1483);
  });

  it('adds LoRaWAN’s 13 bytes to the application payload (a Vicki keep-alive of 9 bytes)', () => {
    expect(frameAirtimeMs(10, 9)).toBe(timeOnAirMs(10, 22));
  });

  it('puts an SF10 valve reporting every 10 minutes at 53 s a day, over TTN’s fair use', () => {
    const perDay = uplinkAirtimePerDayMs(10, 9, 600);
    expect(Math.round(perDay / 1000)).toBe(53);
    expect(perDay).toBeGreaterThan(airtimeBudgetMs('tts'));
  });

  it('suggests the shortest whole-minute interval that fits the budget', () => {
    const minutes = fittingIntervalMinutes(10, 9, 30_000) as number;
    expect(uplinkAirtimePerDayMs(10, 9, minutes * 60)).toBeLessThanOrEqual(30_000);
    expect(uplinkAirtimePerDayMs(10, 9, (minutes - 1) * 60)).toBeGreaterThan(30_000);
    expect(fittingIntervalMinutes(12, 9, 1000)).toBeNull();
  });

  it('takes the budget from the network server unless configured, and the EU868 payload limits', () => {
    expect(airtimeBudgetMs('tts')).toBe(30_000);
    expect(airtimeBudgetMs('chirpstack')).toBe(864_000);
    expect(airtimeBudgetMs('chirpstack', 60)).toBe(60_000);
    expect([maxPayloadBytes(12), maxPayloadBytes(9), maxPayloadBytes(7)]).toEqual([51, 115, 222]);
  });
});
