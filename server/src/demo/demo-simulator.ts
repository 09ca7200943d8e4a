/**
 * Runs the device simulator (tools/simulator) for the demo company's devices against the app's
 * own MQTT broker while the server runs: every minute each device sends an uplink and the gateway
 * its stats, exactly as ChirpStack would publish them. Rooms continue from their last reading.
 * The demo's faults go on: the silent valve stays silent, the low battery keeps
 * draining, and the fault script of demo-data.ts runs, minutes after each start. Valves keep
 * the configuration they reported; the simulated network server starts with an empty queue, so
 * the downlinks it held before a restart are marked failed and the next reconcile sends them again.
 */
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import { type Simulator, startSimulator } from '../../../tools/simulator/simulator.ts';
import type { Db } from '../db/client.ts';
import type { ModelId } from '../lorawan/codecs/codec.ts';
import { companyDevices, failPublishedDownlinks, lastReading } from './demo.repository.ts';
import {
  DEMO_DEVICES,
  DEMO_DRAINING,
  DEMO_FAULT_SCRIPT,
  DEMO_GATEWAY,
  DEMO_SILENT,
  DEMO_SPREADING_FACTORS,
} from './demo-data.ts';
import { DEMO_HISTORY_DAYS } from './demo-history.ts';

const INTERVAL_MS = 60_000;

export interface RunningDemo {
  stop(): Promise<void>;
}

export async function runDemoSimulator(
  db: Db,
  options: { companyId: string; brokerUrl: string; applicationId: string; onError: (err: unknown) => void },
): Promise<RunningDemo> {
  const rows = await companyDevices(db, options.companyId);
  await failPublishedDownlinks(db, options.companyId);
  const specs = [];
  for (const device of rows) {
    const last = await lastReading(db, options.companyId, device.id);
    const index = DEMO_DEVICES.findIndex((d) => d.devEui === device.id);
    specs.push({
      devEui: device.id,
      model: device.model as ModelId,
      spreadingFactor: DEMO_SPREADING_FACTORS[index] ?? 7,
      config: device.reportedConfig,
      ...(last?.room != null ? { roomTemperature: last.room } : {}),
      ...(last?.setpoint != null ? { setpoint: last.setpoint } : {}),
      faults: {
        ...(device.id === DEMO_SILENT.devEui ? { silent: true } : {}),
        ...(device.id === DEMO_DRAINING.devEui
          ? {
              battery: {
                value: last?.battery ?? DEMO_DRAINING.to,
                perDay: (DEMO_DRAINING.from - DEMO_DRAINING.to) / DEMO_HISTORY_DAYS,
              },
            }
          : {}),
      },
    });
  }
  const simulator: Simulator = await startSimulator({
    url: options.brokerUrl,
    applicationId: options.applicationId,
    gateways: [DEMO_GATEWAY],
    devices: specs,
    clientId: 'heizplan-demo-simulator',
    // The weather the demo's buildings get from the stand-in (decision 0057).
    outside: (at) => replayedOutdoorAt(at.getTime()),
    // A tick first advances the simulated clock, then reports: start one interval back so
    // reports carry the real time, not one a minute ahead.
    start: new Date(Date.now() - INTERVAL_MS),
  });
  const started = Date.now();
  const script = DEMO_FAULT_SCRIPT.filter((entry) => rows.some((device) => device.id === entry.devEui)).sort(
    (a, b) => a.afterMinutes - b.afterMinutes,
  );
  const step = () => {
    while (script[0] && script[0].afterMinutes * 60_000 <= Date.now() - started) {
      const entry = script.shift() as (typeof script)[number];
      simulator.inject(entry.devEui, entry.faults);
    }
    return simulator
      .gatewayStats()
      .then(() => simulator.tick(INTERVAL_MS / 3_600_000))
      .catch(options.onError);
  };
  await step();
  const timer = setInterval(() => void step(), INTERVAL_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await simulator.close();
    },
  };
}
