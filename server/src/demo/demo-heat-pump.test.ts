/**
 * The demo's heat pump stand-in, driven by the real Modbus TCP output the demo circuit uses: it
 * takes the setpoint and the release, reads them back, counts compressor starts and moves its flow
 * temperature towards the setpoint as the clock advances.
 */

import { ModbusOutputConfigSchema } from '@heizplan/contracts/generator-outputs';
import ModbusRTU from 'modbus-serial';
import { afterEach, describe, expect, it } from 'vitest';
import { ModbusOutput } from '../generators/modbus.ts';
import { DEMO_HEAT_PUMP_OUTPUT, type DemoHeatPump, IDLE_FLOW, startDemoHeatPump } from './demo-heat-pump.ts';

const T0 = new Date('2026-12-03T06:00:00Z');
let clock = T0;
const now = () => clock;
const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  clock = T0;
});

async function pump(): Promise<{ hp: DemoHeatPump; output: ModbusOutput }> {
  const hp = await startDemoHeatPump(now);
  const output = new ModbusOutput(ModbusOutputConfigSchema.parse(DEMO_HEAT_PUMP_OUTPUT(hp.port)), now);
  running.push(output, hp);
  return { hp, output };
}

/** Reads holding registers 1 and 2 (flow °C × 10, starts) as a building management system would. */
async function readStatus(port: number): Promise<{ flow: number; starts: number }> {
  const client = new ModbusRTU();
  await client.connectTCP('127.0.0.1', { port });
  client.setID(1);
  try {
    const { data } = await client.readHoldingRegisters(1, 2);
    return { flow: (data[0] ?? 0) / 10, starts: data[1] ?? 0 };
  } finally {
    await new Promise<void>((resolve) => client.close(() => resolve()));
  }
}

describe('the demo heat pump', () => {
  it('takes the circuit’s setpoint and release over Modbus TCP and reports them back', async () => {
    const { hp, output } = await pump();
    // Not Modbus's well-known 502, where a real controller may listen.
    expect(hp.port).not.toBe(502);
    const result = await output.write({ circuitId: 'c', enabled: true, supplySetpoint: 38.5 });
    expect(result.ok).toBe(true);
    expect(result.readBack).toEqual({ enabled: true, supplySetpoint: 38.5 });
    expect(hp.state()).toMatchObject({ supplySetpoint: 38.5, released: true, starts: 1 });
  });

  it('moves its flow temperature towards the setpoint while released and back when blocked', async () => {
    const { hp, output } = await pump();
    await output.write({ circuitId: 'c', enabled: true, supplySetpoint: 45 });
    clock = new Date(T0.getTime() + 10 * 60_000);
    const after10 = await readStatus(hp.port);
    // One time constant: 63 % of the way from 25 to 45 °C.
    expect(after10.flow).toBeCloseTo(IDLE_FLOW + 20 * (1 - Math.exp(-1)), 1);
    clock = new Date(T0.getTime() + 120 * 60_000);
    expect((await readStatus(hp.port)).flow).toBeCloseTo(45, 1);

    await output.write({ circuitId: 'c', enabled: false, supplySetpoint: null });
    clock = new Date(T0.getTime() + 240 * 60_000);
    expect((await readStatus(hp.port)).flow).toBeCloseTo(IDLE_FLOW, 1);
  });

  it('counts a compressor start only when the release goes from blocked to released', async () => {
    const { hp, output } = await pump();
    await output.write({ circuitId: 'c', enabled: true, supplySetpoint: 40 });
    await output.write({ circuitId: 'c', enabled: true, supplySetpoint: 41 });
    await output.write({ circuitId: 'c', enabled: false, supplySetpoint: null });
    await output.write({ circuitId: 'c', enabled: true, supplySetpoint: 39 });
    expect((await readStatus(hp.port)).starts).toBe(2);
  });
});
