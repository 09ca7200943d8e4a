import { describe, expect, it } from 'vitest';
import { deliveredSetpoints, parseCarried } from './delivered-setpoints.ts';

describe('delivered setpoints', () => {
  it('names the step of a model that rounds and the range of one that clamps', () => {
    expect(deliveredSetpoints(23.5, [{ setpoint: 24, model: 'milesight-wt101' }])).toEqual([
      { setpoint: 24, reason: 'step', step: 1, devices: 1 },
    ]);
    expect(deliveredSetpoints(21.3, [{ setpoint: 21.5, model: 'micropelt-mlr003' }])).toEqual([
      { setpoint: 21.5, reason: 'step', step: 0.5, devices: 1 },
    ]);
    expect(
      deliveredSetpoints(32, [
        { setpoint: 30, model: 'mclimate-vicki' },
        { setpoint: 30, model: 'mclimate-vicki' },
        { setpoint: 32, model: 'milesight-wt101' },
      ]),
    ).toEqual([{ setpoint: 30, reason: 'range', min: 5, max: 30, devices: 2 }]);
  });

  it('leaves out the unit’s own value, older setpoints, sensors and unknown devices', () => {
    expect(
      deliveredSetpoints(23.5, [
        { setpoint: 23.5, model: 'mclimate-vicki' },
        { setpoint: 21, model: 'milesight-wt101' },
        { setpoint: 24, model: 'elsys-ers' },
        { setpoint: 24, model: null },
        { setpoint: 24, model: 'unknown-model' },
      ]),
    ).toEqual([]);
    expect(deliveredSetpoints(null, [{ setpoint: 24, model: 'milesight-wt101' }])).toEqual([]);
  });

  it('reads the aggregate as parsed JSON or as text', () => {
    expect(parseCarried('[[24, "milesight-wt101"]]')).toEqual([{ setpoint: 24, model: 'milesight-wt101' }]);
    expect(parseCarried([[24, null]])).toEqual([{ setpoint: 24, model: null }]);
    expect(parseCarried(null)).toEqual([]);
  });
});
