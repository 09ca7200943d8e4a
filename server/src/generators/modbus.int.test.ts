/**
 * The Modbus TCP output against a real Modbus TCP server in this process (`ServerTCP` of
 * modbus-serial on a free loopback port): what its service vector sees written, the read-back and
 * an override, and the failures a real generator's gateway produces — no answer, a refused
 * connection — as results, never as throws.
 */
import { once } from 'node:events';
import { ServerTCP } from 'modbus-serial';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../free-port.ts';
import { ModbusOutput } from './modbus.ts';

const AT = new Date('2026-12-03T06:00:00Z');
const clock = () => AT;

interface Device {
  port: number;
  holding: Map<number, number>;
  coils: Map<number, boolean>;
  /** Every write the vector saw, in order: function, address, value, unit id. */
  writes: Array<{ fc: 5 | 6; address: number; value: number | boolean; unit: number }>;
  server: ServerTCP;
}

const servers: ServerTCP[] = [];
const outputs: ModbusOutput[] = [];
afterEach(async () => {
  await Promise.all(outputs.splice(0).map((output) => output.close()));
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

/**
 * A generator's Modbus interface. `manual` holds values the generator keeps whatever is written
 * (a hand override at its panel); `silent` makes every write go unanswered.
 */
async function startDevice(
  options: {
    manual?: { holding?: Record<number, number>; coils?: Record<number, boolean> };
    silent?: boolean;
  } = {},
): Promise<Device> {
  const port = await freePort();
  const holding = new Map<number, number>(
    Object.entries(options.manual?.holding ?? {}).map(([a, v]) => [Number(a), v]),
  );
  const coils = new Map<number, boolean>(
    Object.entries(options.manual?.coils ?? {}).map(([a, v]) => [Number(a), v]),
  );
  const manualHolding = new Set(holding.keys());
  const manualCoils = new Set(coils.keys());
  const writes: Device['writes'] = [];
  const never = () => new Promise<void>(() => {});
  const server = new ServerTCP(
    {
      getHoldingRegister: (address: number) => holding.get(address) ?? 0,
      getCoil: (address: number) => coils.get(address) ?? false,
      setRegister: (address: number, value: number, unit: number) => {
        writes.push({ fc: 6, address, value, unit });
        if (options.silent) return never();
        if (!manualHolding.has(address)) holding.set(address, value);
      },
      setCoil: (address: number, value: boolean, unit: number) => {
        writes.push({ fc: 5, address, value, unit });
        if (options.silent) return never();
        if (!manualCoils.has(address)) coils.set(address, value);
      },
    },
    { host: '127.0.0.1', port },
  );
  servers.push(server);
  await once(server, 'initialized');
  return { port, holding, coils, writes, server };
}

const output = (port: number, config: Partial<ConstructorParameters<typeof ModbusOutput>[0]> = {}) => {
  const made = new ModbusOutput(
    {
      host: '127.0.0.1',
      port,
      unitId: 3,
      setpoint: { register: 100, scale: 10, readBack: true },
      enable: { kind: 'coil', coil: 5, readBack: true },
      timeoutMs: 500,
      ...config,
    },
    clock,
  );
  outputs.push(made);
  return made;
};

describe('ModbusOutput against a Modbus TCP server', () => {
  it('writes the scaled setpoint (FC 06) and the enable coil (FC 05) to its unit, and reads both back', async () => {
    const device = await startDevice();
    const result = await output(device.port).write({ circuitId: 'c1', enabled: true, supplySetpoint: 45.5 });

    expect(device.writes).toEqual([
      { fc: 6, address: 100, value: 455, unit: 3 },
      { fc: 5, address: 5, value: true, unit: 3 },
    ]);
    expect(result).toEqual({
      ok: true,
      at: AT,
      detail:
        'Modbus TCP 127.0.0.1:' +
        `${device.port} unit 3: wrote setpoint 45.5 °C as 455 → register 100, enable on → coil 5`,
      readBack: { enabled: true, supplySetpoint: 45.5 },
      override: false,
    });
  });

  it('rounds to the register’s resolution, half away from zero', async () => {
    const device = await startDevice();
    const out = output(device.port, { setpoint: { register: 100, scale: 10 } });
    await out.write({ circuitId: 'c1', enabled: true, supplySetpoint: 45.55 });
    await out.write({ circuitId: 'c1', enabled: true, supplySetpoint: 45.54 });
    const whole = output(device.port, { setpoint: { register: 101, scale: 1 } });
    await whole.write({ circuitId: 'c1', enabled: true, supplySetpoint: 52.5 });
    expect(device.writes.filter((w) => w.fc === 6).map((w) => [w.address, w.value])).toEqual([
      [100, 456],
      [100, 455],
      [101, 53],
    ]);
  });

  it('writes only the enable while the generator is off, and no setpoint without one', async () => {
    const device = await startDevice();
    const out = output(device.port);
    await out.write({ circuitId: 'c1', enabled: false, supplySetpoint: 45 });
    await out.write({ circuitId: 'c1', enabled: true, supplySetpoint: null });
    expect(device.writes).toEqual([
      { fc: 5, address: 5, value: false, unit: 3 },
      { fc: 5, address: 5, value: true, unit: 3 },
    ]);
  });

  it('writes a signed setpoint in two’s complement and reads it back as °C', async () => {
    const device = await startDevice();
    const result = await output(device.port, {
      setpoint: { register: 7, scale: 10, signed: true, readBack: true },
    }).write({ circuitId: 'c1', enabled: true, supplySetpoint: -2.5 });
    expect(device.holding.get(7)).toBe(0x10000 - 25);
    expect(result.readBack?.supplySetpoint).toBe(-2.5);
    expect(result.ok).toBe(true);
  });

  it('writes the enable as a holding register with its on and off values', async () => {
    const device = await startDevice();
    const out = output(device.port, {
      enable: { kind: 'register', register: 200, on: 2, off: 0, readBack: true },
    });
    const on = await out.write({ circuitId: 'c1', enabled: true, supplySetpoint: 50 });
    expect(device.holding.get(200)).toBe(2);
    expect(on.readBack).toEqual({ enabled: true, supplySetpoint: 50 });
    const off = await out.write({ circuitId: 'c1', enabled: false, supplySetpoint: null });
    expect(device.holding.get(200)).toBe(0);
    expect(off.readBack?.enabled).toBe(false);
  });

  it('reports a hand override in the read-back and the detail, and stays ok', async () => {
    // At the panel: the setpoint fixed at 40.0 °C, the burner held on.
    const device = await startDevice({ manual: { holding: { 100: 400 }, coils: { 5: true } } });
    const result = await output(device.port).write({ circuitId: 'c1', enabled: false, supplySetpoint: null });
    expect(result.ok).toBe(true);
    expect(result.readBack).toEqual({ enabled: true, supplySetpoint: 40 });
    expect(result.detail).toMatch(/override on the generator: enable reads on, not off$/);
    expect(result.override).toBe(true);

    const hot = await output(device.port).write({ circuitId: 'c1', enabled: true, supplySetpoint: 55 });
    expect(hot.readBack).toEqual({ enabled: true, supplySetpoint: 40 });
    expect(hot.detail).toMatch(/override on the generator: supply setpoint reads 40 °C, not 55 °C$/);
  });

  it('reads back from separate status addresses where the device reports there', async () => {
    const device = await startDevice({ manual: { holding: { 300: 480 }, coils: { 9: false } } });
    const result = await output(device.port, {
      setpoint: { register: 100, scale: 10, readBack: true, readBackRegister: 300 },
      enable: { kind: 'coil', coil: 5, readBack: true, readBackCoil: 9 },
    }).write({ circuitId: 'c1', enabled: true, supplySetpoint: 48 });
    expect(result.readBack).toEqual({ enabled: false, supplySetpoint: 48 });
    expect(result.detail).toMatch(/override on the generator: enable reads off, not on$/);
  });

  it('names an enable register that reads neither on nor off', async () => {
    const device = await startDevice({ manual: { holding: { 200: 7 } } });
    const result = await output(device.port, {
      enable: { kind: 'register', register: 200, on: 1, off: 0, readBack: true },
    }).write({ circuitId: 'c1', enabled: true, supplySetpoint: 50 });
    expect(result.readBack).toEqual({ supplySetpoint: 50 });
    expect(result.detail).toMatch(/enable register reads 7, neither on \(1\) nor off \(0\)$/);
  });

  it('answers ok: false, without throwing, when the device does not answer within the timeout', async () => {
    const device = await startDevice({ silent: true });
    const result = await output(device.port, { timeoutMs: 200 }).write({
      circuitId: 'c1',
      enabled: true,
      supplySetpoint: 45,
    });
    expect(result).toEqual({
      ok: false,
      at: AT,
      detail: expect.stringMatching(
        /^Modbus TCP 127\.0\.0\.1:\d+ unit 3: writing the supply setpoint \(FC 06, register 100\): no answer within 200 ms/,
      ),
    });
  });

  it('answers ok: false when the connection is refused', async () => {
    const port = await freePort();
    const result = await output(port).write({ circuitId: 'c1', enabled: true, supplySetpoint: 45 });
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(
      new RegExp(`^Modbus TCP 127\\.0\\.0\\.1:${port} unit 3: connecting: .*ECONNREFUSED`),
    );
  });

  it('refuses a setpoint the register cannot hold instead of writing a wrapped value', async () => {
    const device = await startDevice();
    const result = await output(device.port).write({ circuitId: 'c1', enabled: true, supplySetpoint: -1 });
    expect(result).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/supply setpoint not written: .*0…65535/),
    });
    expect(device.writes).toEqual([]);
  });

  it('ends a write in flight on close, and refuses writes after it', async () => {
    const device = await startDevice({ silent: true });
    const out = output(device.port, { timeoutMs: 30_000 });
    const pending = out.write({ circuitId: 'c1', enabled: true, supplySetpoint: 45 });
    await vi.waitFor(() => expect(device.writes, 'the write to reach the device').not.toEqual([]), {
      timeout: 5000,
    });
    await out.close();
    expect(await pending).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/closed during the write/),
    });
    expect(await out.write({ circuitId: 'c1', enabled: false, supplySetpoint: null })).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/the output is closed$/),
    });
  });
});
