import { describe, expect, it } from 'vitest';
import { testClock } from '../../test/clock.ts';
import { createGeneratorOutput, GeneratorOutputs } from './outputs.ts';

const clock = testClock('2027-01-12T05:00:00Z');
const relay = {
  kind: 'lora_relay',
  devEui: 'a84041000181c061',
  fPort: 1,
  invert: false,
  ro2: 'none',
} as const;
const command = { circuitId: 'c1', enabled: true, supplySetpoint: 55 };

describe('createGeneratorOutput for a LoRaWAN relay', () => {
  it("queues the manual's relay downlink for the circuit's company", async () => {
    const queued: unknown[][] = [];
    const output = createGeneratorOutput(relay, clock.now, {
      companyId: 'company-1',
      queueDownlink: async (...args) => {
        queued.push(args);
      },
    });
    const result = await output.write(command);
    expect(result.ok).toBe(true);
    expect(queued).toEqual([['company-1', 'a84041000181c061', 1, '030111']]);
  });

  it('fails its writes without a downlink queue (no LoRaWAN side on this server)', async () => {
    const result = await createGeneratorOutput(relay, clock.now).write(command);
    expect(result).toMatchObject({
      ok: false,
      detail: expect.stringContaining('downlink queue is not running'),
    });
  });

  it('is a failed write when the queue refuses it (e.g. not a device of the company)', async () => {
    const outputs = new GeneratorOutputs(clock.now, undefined, async () => {
      throw new Error('a84041000181c061 is not a device of the company');
    });
    const { output } = await outputs.get('c1', relay, 'company-1');
    const result = await output.write(command);
    expect(result).toMatchObject({
      ok: false,
      detail: expect.stringContaining('not a device of the company'),
    });
  });
});
