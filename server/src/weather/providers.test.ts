import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import { brightSky, configuredProvider, openMeteo, WeatherError } from './providers.ts';
import { startWeatherStandIn, type WeatherStandIn } from './weather-stand-in.test-kit.ts';

const HOUR = 3_600_000;
const point = { latitude: 48.1598, longitude: 11.5856 };
const now = new Date('2026-11-26T10:30:00Z');

let standIn: WeatherStandIn;
beforeAll(async () => {
  standIn = await startWeatherStandIn(() => now);
});
afterEach(() => {
  standIn.status = null;
  standIn.odd = false;
});
afterAll(() => standIn.close());

describe('Bright Sky', () => {
  it('asks for the point and range and reads observed hours up to now and forecast ones after', async () => {
    const from = new Date('2026-11-26T06:00:00Z');
    const to = new Date('2026-11-26T14:00:00Z');
    const hours = await brightSky(standIn.url).hourly(point, from, to);
    expect(Object.fromEntries((standIn.requests.at(-1) as URL).searchParams)).toEqual({
      lat: '48.1598',
      lon: '11.5856',
      date: from.toISOString(),
      last_date: to.toISOString(),
      tz: 'Etc/UTC',
    });
    expect(hours.map((h) => h.at.toISOString())).toEqual(
      Array.from({ length: 8 }, (_, i) => new Date(from.getTime() + i * HOUR).toISOString()),
    );
    expect(hours.map((h) => h.kind)).toEqual([...Array(5).fill('observed'), ...Array(3).fill('forecast')]);
    expect(hours[0]?.temperature).toBeCloseTo(replayedOutdoorAt(from.getTime()), 1);
  });

  it('fails with a WeatherError on an HTTP error, another body or no server', async () => {
    const from = new Date('2026-11-26T06:00:00Z');
    const to = new Date('2026-11-26T08:00:00Z');
    standIn.status = 503;
    await expect(brightSky(standIn.url).hourly(point, from, to)).rejects.toThrow(
      new WeatherError(`${new URL(standIn.url).host} answered HTTP 503`),
    );
    standIn.status = null;
    standIn.odd = true;
    await expect(brightSky(standIn.url).hourly(point, from, to)).rejects.toThrow(/unexpected body/);
    await expect(brightSky('http://127.0.0.1:9').hourly(point, from, to)).rejects.toThrow(/not reachable/);
  });
});

describe('Open-Meteo', () => {
  it('reads the hourly series in GMT, leaves out hours without a value and marks the future as forecast', async () => {
    standIn.openMeteoHourly = {
      time: ['2026-11-26T09:00', '2026-11-26T10:00', '2026-11-26T11:00', '2026-11-26T12:00'],
      temperature_2m: [-1.5, null, 0.4, 1.2],
    };
    const from = new Date('2026-11-26T09:00:00Z');
    const to = new Date('2026-11-26T12:00:00Z');
    const hours = await openMeteo(standIn.url, 'key-1', () => now).hourly(point, from, to);
    expect(Object.fromEntries((standIn.requests.at(-1) as URL).searchParams)).toEqual({
      latitude: '48.1598',
      longitude: '11.5856',
      hourly: 'temperature_2m',
      start_date: '2026-11-26',
      end_date: '2026-11-26',
      timezone: 'GMT',
      apikey: 'key-1',
    });
    // 12:00 is outside [from, to); 10:00 has no value.
    expect(hours).toEqual([
      { at: new Date('2026-11-26T09:00:00Z'), temperature: -1.5, kind: 'observed' },
      { at: new Date('2026-11-26T11:00:00Z'), temperature: 0.4, kind: 'forecast' },
    ]);
  });
});

describe('WEATHER_PROVIDER', () => {
  it('names the provider; none means no outdoor temperature', () => {
    expect(configuredProvider({ provider: 'brightsky', url: standIn.url })?.name).toBe('brightsky');
    expect(configuredProvider({ provider: 'open-meteo', url: standIn.url })?.name).toBe('open-meteo');
    expect(configuredProvider({ provider: 'none', url: standIn.url })).toBeNull();
  });
});
