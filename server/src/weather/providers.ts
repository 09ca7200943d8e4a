/**
 * Outdoor temperature providers behind one interface (decision 0057): hourly 2 m air temperature
 * for a point, observed for the past and forecast for the future.
 *
 * - **Bright Sky** (`brightsky`, default, no key): DWD station observations and MOSMIX forecasts
 *   as JSON, `GET {url}/weather?lat=&lon=&date=&last_date=&tz=Etc/UTC` →
 *   `{ weather: [{ timestamp, source_id, temperature, … }], sources: [{ id, observation_type, … }] }`
 *   where `observation_type` is `historical`, `current`, `synop` or `forecast` (brightsky.dev).
 * - **Open-Meteo** (`open-meteo`): `GET {url}/v1/forecast?latitude=&longitude=&hourly=temperature_2m
 *   &start_date=&end_date=&timezone=GMT` → `{ hourly: { time: ["2026-11-26T06:00", …],
 *   temperature_2m: [3.1, …] } }`; hours before now count as observed (model analysis), the rest
 *   as forecast. The free API is for non-commercial use only; with OPEN_METEO_API_KEY the
 *   customer API (`customer-api.open-meteo.com`, `&apikey=`) is used (open-meteo.com/en/terms).
 *
 * Every call fails with `WeatherError` (network, HTTP status, unexpected body); callers keep what
 * they have and the model runs on indoor data alone until a later call succeeds.
 */
import { z } from 'zod';

/** One hour of outdoor temperature at a point. */
export interface OutdoorHour {
  /** The full hour, UTC. */
  at: Date;
  /** °C. */
  temperature: number;
  kind: 'observed' | 'forecast';
}

export interface WeatherProvider {
  readonly name: 'brightsky' | 'open-meteo';
  /**
   * The hours in `[from, to)` the provider has for the point (WGS 84 degrees); hours without a
   * value are left out.
   * @throws WeatherError when the provider cannot be reached or answers unexpectedly.
   */
  hourly(point: { latitude: number; longitude: number }, from: Date, to: Date): Promise<OutdoorHour[]>;
}

export class WeatherError extends Error {
  override name = 'WeatherError';
}

/** What the providers may take for one call. */
const TIMEOUT_MS = 15_000;
const HOUR_MS = 3_600_000;

const BrightSkySchema = z.object({
  weather: z.array(
    z.object({
      timestamp: z.string(),
      source_id: z.number().int(),
      temperature: z.number().nullable(),
    }),
  ),
  sources: z.array(z.object({ id: z.number().int(), observation_type: z.string() })),
});

const OpenMeteoSchema = z.object({
  hourly: z.object({
    time: z.array(z.string()),
    temperature_2m: z.array(z.number().nullable()),
  }),
});

async function getJson(url: URL): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new WeatherError(`${url.host} not reachable: ${(err as Error).message}`);
  }
  if (!response.ok) throw new WeatherError(`${url.host} answered HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new WeatherError(`${url.host} answered no JSON`);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown, host: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new WeatherError(`${host} answered an unexpected body`);
  return parsed.data;
}

const inRange = (at: Date, from: Date, to: Date) => at >= from && at < to && at.getTime() % HOUR_MS === 0;

/** Bright Sky at `baseUrl` (https://api.brightsky.dev or a stand-in speaking its protocol). */
export function brightSky(baseUrl: string): WeatherProvider {
  return {
    name: 'brightsky',
    async hourly(point, from, to) {
      const url = new URL(`${baseUrl.replace(/\/$/, '')}/weather`);
      url.searchParams.set('lat', String(point.latitude));
      url.searchParams.set('lon', String(point.longitude));
      url.searchParams.set('date', from.toISOString());
      url.searchParams.set('last_date', to.toISOString());
      url.searchParams.set('tz', 'Etc/UTC');
      const body = parse(BrightSkySchema, await getJson(url), url.host);
      const forecastSources = new Set(
        body.sources.filter((s) => s.observation_type === 'forecast').map((s) => s.id),
      );
      return body.weather.flatMap((w) => {
        const at = new Date(w.timestamp);
        if (w.temperature === null || Number.isNaN(at.getTime()) || !inRange(at, from, to)) return [];
        const kind = forecastSources.has(w.source_id) ? ('forecast' as const) : ('observed' as const);
        return [{ at, temperature: w.temperature, kind }];
      });
    },
  };
}

/**
 * Open-Meteo at `baseUrl` (https://api.open-meteo.com, or with `apiKey` the customer API);
 * `now` decides which hours are past (observed).
 */
export function openMeteo(
  baseUrl: string,
  apiKey?: string,
  now: () => Date = () => new Date(),
): WeatherProvider {
  return {
    name: 'open-meteo',
    async hourly(point, from, to) {
      const url = new URL(`${baseUrl.replace(/\/$/, '')}/v1/forecast`);
      url.searchParams.set('latitude', String(point.latitude));
      url.searchParams.set('longitude', String(point.longitude));
      url.searchParams.set('hourly', 'temperature_2m');
      url.searchParams.set('start_date', from.toISOString().slice(0, 10));
      url.searchParams.set('end_date', new Date(to.getTime() - 1).toISOString().slice(0, 10));
      url.searchParams.set('timezone', 'GMT');
      if (apiKey) url.searchParams.set('apikey', apiKey);
      const { hourly } = parse(OpenMeteoSchema, await getJson(url), url.host);
      const current = now().getTime();
      return hourly.time.flatMap((time, i) => {
        const temperature = hourly.temperature_2m[i];
        const at = new Date(`${time}:00Z`);
        if (temperature === null || temperature === undefined || Number.isNaN(at.getTime())) return [];
        if (!inRange(at, from, to)) return [];
        return [
          { at, temperature, kind: at.getTime() <= current ? ('observed' as const) : ('forecast' as const) },
        ];
      });
    },
  };
}

/** The provider WEATHER_PROVIDER names, at WEATHER_URL; null for `none`. */
export function configuredProvider(weather: {
  provider: 'brightsky' | 'open-meteo' | 'none';
  url: string;
  apiKey?: string;
}): WeatherProvider | null {
  if (weather.provider === 'none') return null;
  return weather.provider === 'open-meteo' ? openMeteo(weather.url, weather.apiKey) : brightSky(weather.url);
}
