/**
 * How a heating circuit's command reaches its heat generator (decision 0075): the configuration of
 * each output. Temperatures °C, durations ms, Modbus addresses 0-based as on the wire (a device
 * manual's "40101" or "register 101" is often 1-based: subtract accordingly).
 */
import { z } from 'zod';

const address = (what: string) =>
  z
    .number({ message: `${what} is a Modbus address.` })
    .int(`${what} is a whole number.`)
    .min(0, `${what} is at least 0.`)
    .max(65535, `${what} is at most 65535.`);

const registerValue = (what: string) =>
  z
    .number({ message: `${what} is a register value.` })
    .int(`${what} is a whole number.`)
    .min(0, `${what} is at least 0.`)
    .max(65535, `${what} is at most 65535.`);

/**
 * The supply setpoint as a holding register (written with function code 06, read back with 03):
 * the value in °C times `scale`, rounded (scale 10: 45.5 °C is written as 455), as a 16-bit
 * signed (two's complement) or unsigned integer.
 */
export const ModbusSetpointSchema = z.object({
  register: address('The setpoint register'),
  scale: z
    .number({ message: 'The scale is a number.' })
    .positive('The scale is above 0.')
    .max(1000, 'The scale is at most 1000.')
    .default(10),
  signed: z.boolean().default(false),
  /** Read the register back after writing it. */
  readBack: z.boolean().default(false),
  /** Where the generator reports the setpoint it works with, when not at `register`. */
  readBackRegister: address('The setpoint read-back register').optional(),
});

/**
 * The enable: a coil (function code 05, read back with 01) on while the generator should run, or a
 * holding register (06, read back with 03) with one value for on and one for off.
 */
export const ModbusEnableSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('coil'),
    coil: address('The enable coil'),
    readBack: z.boolean().default(false),
    readBackCoil: address('The enable read-back coil').optional(),
  }),
  z
    .object({
      kind: z.literal('register'),
      register: address('The enable register'),
      on: registerValue('The value for on').default(1),
      off: registerValue('The value for off').default(0),
      readBack: z.boolean().default(false),
      readBackRegister: address('The enable read-back register').optional(),
    })
    .refine((value) => value.on !== value.off, {
      path: ['on'],
      message: 'The values for on and off differ.',
    }),
]);

/** A heat generator (or its gateway) reached by Modbus TCP. */
export const ModbusOutputConfigSchema = z.object({
  host: z.string().trim().min(1, 'The host is required.').max(253, 'The host has at most 253 characters.'),
  port: z.number().int().min(1).max(65535).default(502),
  /** The Modbus unit (slave) id; 1–247 (0 is broadcast, 248–255 are reserved). */
  unitId: z
    .number()
    .int()
    .min(1, 'The unit id is at least 1.')
    .max(247, 'The unit id is at most 247.')
    .default(1),
  setpoint: ModbusSetpointSchema,
  enable: ModbusEnableSchema,
  /** How long to wait for the connection and for each reply, ms. */
  timeoutMs: z.number().int().min(100).max(60_000).default(3000),
});
export type ModbusOutputConfig = z.infer<typeof ModbusOutputConfigSchema>;
export type ModbusOutputConfigInput = z.input<typeof ModbusOutputConfigSchema>;

/** One MQTT topic level: no wildcards, no separator, not empty. */
const topicLevel = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required.`)
    .max(100, `${what} has at most 100 characters.`)
    .regex(/^[^/#+\s]+$/, `${what} is one topic level: no “/”, “#”, “+” or spaces.`);

/**
 * A building management system reached by MQTT: each circuit's state published retained under
 * `baseTopic`, where `{companySlug}` and `{circuitId}` are filled in, plus Home Assistant discovery
 * messages under `discoveryPrefix`. Availability (`online`/`offline`, the connection's last will)
 * at `availabilityTopic`, with the same placeholder for the company.
 */
export const MqttBmsOutputConfigSchema = z.object({
  url: z
    .string()
    .regex(/^mqtts?:\/\/[^\s]+$/, 'The broker is an mqtt:// or mqtts:// URL.')
    .max(500),
  username: z.string().max(200).optional(),
  password: z.string().max(500).optional(),
  companySlug: topicLevel('The company slug'),
  baseTopic: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .regex(/^[^#+\s]+\/$/, 'The base topic ends with “/” and has no “#”, “+” or spaces.')
    .refine((topic) => topic.includes('{circuitId}'), 'The base topic contains {circuitId}.')
    .default('heizplan/{companySlug}/circuits/{circuitId}/'),
  availabilityTopic: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .regex(/^[^#+\s]+$/, 'The availability topic has no “#”, “+” or spaces.')
    .default('heizplan/{companySlug}/availability'),
  /** Home Assistant's discovery prefix; null publishes no discovery messages. */
  discoveryPrefix: topicLevel('The discovery prefix').nullable().default('homeassistant'),
  /** How long to wait for the broker's acknowledgement of a write, ms. */
  timeoutMs: z.number().int().min(100).max(60_000).default(5000),
});
export type MqttBmsOutputConfig = z.infer<typeof MqttBmsOutputConfigSchema>;
export type MqttBmsOutputConfigInput = z.input<typeof MqttBmsOutputConfigSchema>;

/**
 * A heat generator switched by the relays of a Dragino LT-22222-L LoRaWAN I/O controller: RO1
 * closed while the generator should run (open with `invert`), RO2 left alone, switched along or
 * switched the other way. The supply setpoint is not sent: the device has no analog output.
 */
export const LoraRelayOutputConfigSchema = z.object({
  devEui: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{16}$/, 'The DevEUI is 16 hexadecimal digits.'),
  /** The downlink's LoRaWAN port, 1–223. */
  fPort: z.number().int().min(1).max(223).default(1),
  /** Open RO1 to enable (a normally-closed burner release). */
  invert: z.boolean().default(false),
  ro2: z.enum(['none', 'follow', 'inverse']).default('none'),
});
export type LoraRelayOutputConfig = z.infer<typeof LoraRelayOutputConfigSchema>;
export type LoraRelayOutputConfigInput = z.input<typeof LoraRelayOutputConfigSchema>;
