import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { main } from './codec-cli.ts';

function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('codec CLI', () => {
  it('decodes an uplink to one JSON object with the common field names', () => {
    const result = run('decode', '--model', 'mclimate-vicki', '--fport', '1', '--hex', '011D5A78FA2C01F080');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ roomTemperature: 18.01, setpoint: 29, valveOpening: 17 });
  });

  it('encodes a setpoint downlink as {fPort, hex}', () => {
    expect(run('encode', '--model', 'milesight-wt101', '--setpoint', '21')).toEqual({
      code: 0,
      out: '{"fPort":85,"hex":"ffb1150a00"}',
      err: '',
    });
  });

  it('encodes wall-control limits', () => {
    expect(run('encode', '--model', 'mclimate-vicki', '--min', '16', '--max', '24').out).toBe(
      '{"fPort":1,"hex":"081018"}',
    );
  });

  it('lists the five models', () => {
    const lines = run('list').out.split('\n');
    expect(lines.map((l) => l.split('\t')[0])).toEqual([
      'mclimate-vicki',
      'milesight-wt101',
      'micropelt-mlr003',
      'elsys-ers',
      'dragino-lt22222',
    ]);
  });

  it.each([
    [['decode', '--model', 'elsys-ers', '--fport', '5', '--hex', '0100'], 1, 'elsys-ers: truncated value'],
    [
      ['decode', '--model', 'elsys-ers', '--fport', '5', '--hex', 'xyz'],
      1,
      "'xyz' is not an even number of hex digits",
    ],
    [
      ['decode', '--model', 'acme-valve', '--fport', '1', '--hex', '00'],
      1,
      'acme-valve: unknown model; known models:',
    ],
    [['encode', '--model', 'elsys-ers', '--setpoint', '21'], 1, 'does not support a setpoint'],
    [
      ['encode', '--model', 'mclimate-vicki', '--setpoint', 'warm'],
      2,
      "--setpoint must be a number, got 'warm'",
    ],
    [['decode', '--model', 'elsys-ers', '--hex', '0100e2'], 2, '--fport is required'],
    [['frobnicate'], 2, "unknown command 'frobnicate'"],
    [['list', '--colour'], 2, "Unknown option '--colour'"],
  ])('fails clearly for %j', (args, code, message) => {
    const result = run(...args);
    expect(result.code).toBe(code);
    expect(result.out).toBe('');
    expect(result.err).toContain(message);
  });

  it('runs as `npm run codec` and exits non-zero on a bad payload', () => {
    const ok = spawnSync(
      'npm',
      ['run', '-s', 'codec', '--', 'decode', '--model', 'elsys-ers', '--fport', '5', '--hex', '0100e2'],
      {
        encoding: 'utf8',
      },
    );
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      roomTemperature: 22.6,
      errors: [],
    });
    const bad = spawnSync(
      'npm',
      ['run', '-s', 'codec', '--', 'decode', '--model', 'elsys-ers', '--fport', '5', '--hex', '01'],
      {
        encoding: 'utf8',
      },
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('elsys-ers: truncated value of type 0x1');
  });
});
