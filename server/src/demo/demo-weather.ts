/**
 * The demo's weather (decision 0057): a local stand-in of Bright Sky's `/weather` endpoint that
 * replays a recorded DWD winter (station 00044 Großenkneten, Jan–Feb 2021, bundled in
 * `tools/simulator/outdoor-winter.ts` with its source) at any date — the same series the demo's
 * rooms are simulated in, so what the demo learns about outdoor temperature is physically there.
 * Served by the app itself at `GET /api/public/demo/weather`; used for the demo company's
 * buildings and by tests, never for a real company's.
 */
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';

/** Path prefix a Bright Sky provider is given for the stand-in (it appends `/weather`). */
export const DEMO_WEATHER_BASE_PATH = '/api/public/demo';

const HOUR_MS = 3_600_000;
/** Longest span one request may ask, like a public instance that limits its answers. */
export const DEMO_WEATHER_MAX_DAYS = 31;
const OBSERVED_SOURCE = 44;
const FORECAST_SOURCE = 10_044;

/**
 * Bright Sky's answer for the hours `[date, lastDate)`: observed (`historical`) up to `now`,
 * `forecast` after it, with the two sources as Bright Sky describes them.
 */
export function demoWeather(date: Date, lastDate: Date, now: Date) {
  const weather = [];
  for (let t = Math.ceil(date.getTime() / HOUR_MS) * HOUR_MS; t < lastDate.getTime(); t += HOUR_MS) {
    weather.push({
      timestamp: new Date(t).toISOString().replace('.000Z', '+00:00'),
      source_id: t <= now.getTime() ? OBSERVED_SOURCE : FORECAST_SOURCE,
      temperature: Math.round(replayedOutdoorAt(t) * 10) / 10,
    });
  }
  const station = {
    dwd_station_id: '00044',
    wmo_station_id: '10203',
    station_name: 'Großenkneten (replayed winter 2021)',
    lat: 52.9336,
    lon: 8.237,
    height: 44,
  };
  return {
    weather,
    sources: [
      { id: OBSERVED_SOURCE, observation_type: 'historical', ...station },
      { id: FORECAST_SOURCE, observation_type: 'forecast', ...station },
    ],
  };
}
