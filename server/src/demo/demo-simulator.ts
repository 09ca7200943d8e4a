/**
 * Runs the device simulator (tools/simulator) for the demo company's devices against the app's
 * own MQTT broker while the server runs: every minute each device sends an uplink and the gateway
 * its stats, exactly as ChirpStack would publish them. Rooms continue from their last reading.
 */
import { and, desc, eq } from 'drizzle-orm';
import { type Simulator, startSimulator } from '../../../tools/simulator/simulator.ts';
import type { Db } from '../db/client.ts';
import { devices, telemetry } from '../db/schema.ts';
import type { ModelId } from '../lorawan/codecs/codec.ts';
import { DEMO_GATEWAY } from './demo-data.ts';

const INTERVAL_MS = 60_000;

export interface RunningDemo {
  stop(): Promise<void>;
}

export async function runDemoSimulator(
  db: Db,
  options: { companyId: string; brokerUrl: string; applicationId: string; onError: (err: unknown) => void },
): Promise<RunningDemo> {
  const rows = await db.select().from(devices).where(eq(devices.companyId, options.companyId));
  const specs = [];
  for (const device of rows) {
    const [last] = await db
      .select({ room: telemetry.roomTemperature, setpoint: telemetry.setpointReported })
      .from(telemetry)
      .where(and(eq(telemetry.companyId, options.companyId), eq(telemetry.devEui, device.id)))
      .orderBy(desc(telemetry.time))
      .limit(1);
    specs.push({
      devEui: device.id,
      model: device.model as ModelId,
      ...(last?.room != null ? { roomTemperature: last.room } : {}),
      ...(last?.setpoint != null ? { setpoint: last.setpoint } : {}),
    });
  }
  const simulator: Simulator = await startSimulator({
    url: options.brokerUrl,
    applicationId: options.applicationId,
    gateways: [DEMO_GATEWAY],
    devices: specs,
    clientId: 'heizplan-demo-simulator',
    // A tick first advances the simulated clock, then reports: start one interval back so
    // reports carry the real time, not one a minute ahead.
    start: new Date(Date.now() - INTERVAL_MS),
  });
  const step = () =>
    simulator
      .gatewayStats()
      .then(() => simulator.tick(INTERVAL_MS / 3_600_000))
      .catch(options.onError);
  await step();
  const timer = setInterval(() => void step(), INTERVAL_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await simulator.close();
    },
  };
}
