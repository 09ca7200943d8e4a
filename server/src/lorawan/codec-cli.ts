/**
 * Operator tool for debugging a device's payloads:
 *
 *   npm run codec -- decode --model <model> --fport <n> --hex <payload>   → one JSON Reading
 *   npm run codec -- encode --model <model> --setpoint <°C>              → {"fPort":n,"hex":"…"}
 *   npm run codec -- encode --model <model> --min <°C> --max <°C>        → limits downlink
 *   npm run codec -- list                                                → the known models
 *
 * Exit code 0 on success, 1 for a bad payload/value (CodecError), 2 for a usage error.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bytesToHex, CodecError, type DeviceCodec, type Frame, hexToBytes } from './codecs/codec.ts';
import { getCodec, listCodecs } from './codecs/registry.ts';

const USAGE = `usage:
  codec decode --model <model> --fport <n> --hex <payload>
  codec encode --model <model> --setpoint <°C>
  codec encode --model <model> --min <°C> --max <°C>
  codec list`;

class UsageError extends Error {}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

function number(name: string, value: string | undefined): number {
  if (value === undefined) throw new UsageError(`--${name} is required.`);
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${name} must be a number, got '${value}'.`);
  return n;
}

const frameJson = (frame: Frame) => JSON.stringify({ fPort: frame.fPort, hex: bytesToHex(frame.bytes) });

function describe(codec: DeviceCodec): string {
  const setpoint = codec.setpoint
    ? `setpoint ${codec.setpoint.min}…${codec.setpoint.max} °C step ${codec.setpoint.step}`
    : 'no setpoint';
  const limits = codec.limits
    ? `, limits: lower ${codec.limits.lower.join('…')} °C, upper ${codec.limits.upper.join('…')} °C`
    : '';
  return `${codec.model}\t${codec.vendor} ${codec.name} (${codec.kind}; ${setpoint}${limits})`;
}

function run(args: string[], io: Io) {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      fport: { type: 'string' },
      hex: { type: 'string' },
      setpoint: { type: 'string' },
      min: { type: 'string' },
      max: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'.`);
  if (command === 'list') {
    for (const codec of listCodecs()) io.out(describe(codec));
    return;
  }
  if (command !== 'decode' && command !== 'encode')
    throw new UsageError(`unknown command '${command ?? ''}'.`);
  if (!values.model) throw new UsageError('--model is required.');
  const codec = getCodec(values.model);
  if (command === 'decode') {
    if (values.hex === undefined) throw new UsageError('--hex is required.');
    const fPort = number('fport', values.fport);
    io.out(JSON.stringify(codec.decodeUplink(fPort, hexToBytes(values.hex, codec.model))));
    return;
  }
  if (values.setpoint !== undefined) {
    io.out(frameJson(codec.encodeSetpoint(number('setpoint', values.setpoint))));
    return;
  }
  if (values.min === undefined && values.max === undefined)
    throw new UsageError('--setpoint or --min/--max is required.');
  io.out(frameJson(codec.encodeLimits(number('min', values.min), number('max', values.max))));
}

/** Runs the CLI with `args` (without node and script); returns the process exit code. */
export function main(args: string[], io: Io = { out: console.log, err: console.error }): number {
  try {
    run(args, io);
    return 0;
  } catch (error) {
    if (error instanceof CodecError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      io.err(`error: ${error.message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
