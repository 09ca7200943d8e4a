/**
 * Simulator command line:
 *
 *   npm run simulate -- --url mqtt://127.0.0.1:1883 --devices 70b3d52dd3000001:mclimate-vicki,… \
 *     [--gateway b827ebfffe6c2a11] [--application heizplan] [--every 10m] [--speed 60] [--backfill 14d] \
 *     [--fault 70b3d52dd3000001:silent,70b3d52dd3000002:battery=30/2,…]
 *
 * `--every` is the simulated time between uplinks of a device, `--speed` how many simulated
 * seconds pass per real second (default 1, real time), `--backfill` first sends that much history
 * as fast as the broker takes it, ending now. `--fault` injects faults from the start:
 * `silent`, `window`, `noheat`, `error=<code>` (e.g. calibrationFailed) and
 * `battery=<value>[/<fall per day>]` in the model's unit. Exits 2 with a message on bad arguments.
 */
import { parseArgs } from 'node:util';
import type { ModelId } from '../../server/src/lorawan/codecs/codec.ts';
import { isModelId } from '../../server/src/lorawan/codecs/registry.ts';
import { type DeviceFaults, type SimulatedDevice, startSimulator } from './simulator.ts';

/** '10m', '2h', '14d', '30s' → hours. @throws Error for anything else. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(text);
  if (!match) throw new Error(`'${text}' is not a duration like 30s, 10m, 2h or 14d`);
  const factor = { s: 1 / 3600, m: 1 / 60, h: 1, d: 24 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * factor;
}

/** 'deveui:model,…' → devices. @throws Error naming the bad entry. */
export function parseDevices(text: string): SimulatedDevice[] {
  return text.split(',').map((entry) => {
    const [devEui = '', model = ''] = entry.split(':');
    if (!/^[0-9a-f]{16}$/i.test(devEui)) throw new Error(`'${entry}': DevEUI must be 16 hex digits`);
    if (!isModelId(model)) throw new Error(`'${entry}': unknown model '${model}'`);
    return { devEui: devEui.toLowerCase(), model: model as ModelId };
  });
}

/** 'deveui:fault,…' → faults per DevEUI (see the module doc). @throws Error naming the bad entry. */
export function parseFaults(text: string): Map<string, DeviceFaults> {
  const result = new Map<string, DeviceFaults>();
  for (const entry of text.split(',')) {
    const [devEui = '', fault = ''] = entry.split(':');
    if (!/^[0-9a-f]{16}$/i.test(devEui)) throw new Error(`'${entry}': DevEUI must be 16 hex digits`);
    const faults = result.get(devEui.toLowerCase()) ?? {};
    const [name, value = ''] = fault.split('=');
    if (name === 'silent') faults.silent = true;
    else if (name === 'window') faults.openWindow = true;
    else if (name === 'noheat') faults.noHeat = true;
    else if (name === 'error' && /^[a-zA-Z]+$/.test(value)) faults.errors = [...(faults.errors ?? []), value];
    else if (name === 'battery' && /^\d+(\.\d+)?(\/\d+(\.\d+)?)?$/.test(value)) {
      const [level, perDay] = value.split('/').map(Number);
      faults.battery = { value: level as number, ...(perDay ? { perDay } : {}) };
    } else
      throw new Error(
        `'${entry}': unknown fault (silent, window, noheat, error=<code>, battery=<value>[/<per day>])`,
      );
    result.set(devEui.toLowerCase(), faults);
  }
  return result;
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883' },
      devices: { type: 'string' },
      gateway: { type: 'string', default: 'b827ebfffe6c2a11' },
      application: { type: 'string', default: process.env.CHIRPSTACK_APPLICATION_ID ?? 'heizplan' },
      every: { type: 'string', default: '10m' },
      speed: { type: 'string', default: '1' },
      backfill: { type: 'string' },
      fault: { type: 'string' },
    },
  });
  if (!values.devices) throw new Error('--devices deveui:model,… is required');
  const faults = values.fault ? parseFaults(values.fault) : new Map<string, DeviceFaults>();
  const devices = parseDevices(values.devices).map((device) => ({
    ...device,
    faults: faults.get(device.devEui),
  }));
  const every = parseDuration(values.every);
  const speed = Number(values.speed);
  if (!(speed > 0)) throw new Error('--speed must be a positive number');
  const backfill = values.backfill ? parseDuration(values.backfill) : 0;
  const simulator = await startSimulator({
    url: values.url,
    applicationId: values.application,
    gateways: [values.gateway],
    devices,
    start: new Date(Date.now() - backfill * 3_600_000),
  });
  for (let done = 0; done + every <= backfill; done += every) await simulator.tick(every);
  if (backfill > 0) console.info(`backfilled ${backfill} h for ${devices.length} devices`);
  process.once('SIGINT', () => void simulator.close().then(() => process.exit(0)));
  process.once('SIGTERM', () => void simulator.close().then(() => process.exit(0)));
  for (;;) {
    await simulator.gatewayStats();
    await new Promise((resolve) => setTimeout(resolve, (every * 3_600_000) / speed));
    await simulator.tick(every);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  });
}
