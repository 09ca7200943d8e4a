/**
 * A local stand-in for the weather providers (decision 0057) on 127.0.0.1, speaking their public
 * protocols: Bright Sky's `GET /weather?lat&lon&date&last_date` answered from the recorded DWD
 * winter (the demo's `demoWeather`, observed up to `now()`, forecast after it), and Open-Meteo's
 * `GET /v1/forecast` answered with `openMeteoHourly` in its documented shape. `status`, when set,
 * is answered instead (an outage); `odd` answers a body of another shape.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoWeather } from '../demo/demo-weather.ts';

export interface WeatherStandIn {
  url: string;
  /** Every request, in order. */
  requests: URL[];
  /** An HTTP status to answer every request with; null = answer normally. */
  status: number | null;
  /** Answer a body that is no provider's. */
  odd: boolean;
  /** Open-Meteo's `hourly` object. */
  openMeteoHourly: { time: string[]; temperature_2m: (number | null)[] };
  close(): Promise<void>;
}

export async function startWeatherStandIn(now: () => Date): Promise<WeatherStandIn> {
  const state: Omit<WeatherStandIn, 'url' | 'close'> = {
    requests: [],
    status: null,
    odd: false,
    openMeteoHourly: { time: [], temperature_2m: [] },
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    state.requests.push(url);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (state.status !== null) return send(state.status, { error: 'unavailable' });
    if (state.odd) return send(200, { weather: 'sunny' });
    if (url.pathname === '/weather') {
      const date = new Date(url.searchParams.get('date') ?? '');
      const last = new Date(url.searchParams.get('last_date') ?? '');
      return send(200, demoWeather(date, last, now()));
    }
    if (url.pathname === '/v1/forecast')
      return send(200, {
        latitude: Number(url.searchParams.get('latitude')),
        longitude: Number(url.searchParams.get('longitude')),
        hourly_units: { time: 'iso8601', temperature_2m: '°C' },
        hourly: state.openMeteoHourly,
      });
    return send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const standIn = state as WeatherStandIn;
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return standIn;
}
