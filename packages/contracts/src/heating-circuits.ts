/**
 * Heating circuits (Heizkreise) API contracts: a building's circuits, the rooms (units) each
 * serves, its heat generator and heating curve, and what the rooms ask of it — the demand and
 * the recommended supply temperature (Vorlauf) the server computes every 5 minutes. Temperatures
 * °C, demand %, instants ISO 8601 UTC. Circuits are changed by admins (`manage`) and read by
 * every member.
 */
import { z } from 'zod';
import {
  LoraRelayOutputConfigSchema,
  ModbusOutputConfigSchema,
  MqttBmsOutputConfigSchema,
} from './generator-outputs.ts';
import { CompanyParamsSchema } from './heating.ts';
import { PageQuerySchema, pageOf } from './problem.ts';

export const GENERATOR_TYPES = [
  'gas_boiler',
  'oil_boiler',
  'condensing_boiler',
  'heat_pump_air',
  'heat_pump_brine',
  'district_heating',
] as const;
export const GeneratorTypeSchema = z.enum(GENERATOR_TYPES);
export type GeneratorType = z.infer<typeof GeneratorTypeSchema>;

/**
 * `off`: nothing is computed. `shadow`: the demand and recommended supply temperature are
 * computed and shown, nothing is sent to the heat generator. `on`: computed as in shadow and
 * written to the circuit's output (decision 0077); needs an output that the server can write to
 * (Modbus TCP or MQTT; not yet the LoRaWAN relay).
 */
export const CIRCUIT_MODES = ['off', 'shadow', 'on'] as const;
export const CircuitModeSchema = z.enum(CIRCUIT_MODES);
export type CircuitMode = z.infer<typeof CircuitModeSchema>;

/** Why the generator should run or not, as the last step decided. */
export const CIRCUIT_REASONS = ['demand', 'frost', 'no-demand', 'min-on', 'min-off'] as const;

export const HeatingCircuitParamsSchema = CompanyParamsSchema.extend({ circuitId: z.uuid() });

/** Whether `url` carries a user name or password (`mqtt://user:secret@host`): an "@" before the path. */
const hasUserInfo = (url: string) => /^[a-z]+:\/\/[^/?#]*@/i.test(url);

/** The kinds of output a circuit's command can go to (decision 0075). */
export const CIRCUIT_OUTPUT_KINDS = ['modbus', 'mqtt', 'lora_relay'] as const;
export type CircuitOutputKind = (typeof CIRCUIT_OUTPUT_KINDS)[number];

/**
 * The output a circuit writes its command to in mode `on`, as given on create and PATCH: the
 * configuration of decision 0075 with its `kind`; null for none. On a PATCH the output is replaced
 * whole, except that an MQTT `password` left out keeps the one stored for the circuit's MQTT
 * output ("" removes it). A PATCH of `output` alone leaves the mode as it is.
 */
export const CircuitOutputInputSchema = z.discriminatedUnion('kind', [
  ModbusOutputConfigSchema.extend({ kind: z.literal('modbus') }),
  // Credentials in the URL would be returned with the circuit and written into every write's
  // detail; the password field is stored encrypted and never returned.
  MqttBmsOutputConfigSchema.extend({ kind: z.literal('mqtt') }).refine((config) => !hasUserInfo(config.url), {
    path: ['url'],
    message: 'Put the user name and password in their fields, not in the broker URL.',
  }),
  LoraRelayOutputConfigSchema.extend({ kind: z.literal('lora_relay') }),
]);
export type CircuitOutputInput = z.input<typeof CircuitOutputInputSchema>;
export type CircuitOutputConfig = z.output<typeof CircuitOutputInputSchema>;

/** The output as read: everything but the MQTT broker's password, of which only whether one is stored. */
export const CircuitOutputSchema = z.discriminatedUnion('kind', [
  ModbusOutputConfigSchema.extend({ kind: z.literal('modbus') }),
  MqttBmsOutputConfigSchema.omit({ password: true }).extend({
    kind: z.literal('mqtt'),
    hasPassword: z.boolean(),
  }),
  LoraRelayOutputConfigSchema.extend({ kind: z.literal('lora_relay') }),
]);
export type CircuitOutput = z.output<typeof CircuitOutputSchema>;

const temperature = (field: string, min: number, max: number) =>
  z
    .number({ message: `${field} is a temperature in °C.` })
    .min(min, `${field} is at least ${min} °C.`)
    .max(max, `${field} is at most ${max} °C.`);

const fields = {
  name: z.string().trim().min(1, 'The name is required.').max(120, 'The name has at most 120 characters.'),
  buildingId: z.uuid('Choose the building the circuit is in.'),
  generatorType: GeneratorTypeSchema,
  /** Design supply and return temperature of the radiators, °C (e.g. 70/55). */
  designSupply: temperature('The design supply temperature', 25, 95),
  designReturn: temperature('The design return temperature', 20, 90),
  /** Design outdoor temperature (EN 12831), °C. */
  designOutdoor: temperature('The design outdoor temperature', -30, 5),
  /** The heating curve as set: supply at the design outdoor temperature … */
  curveSupply: temperature('The heating curve’s supply temperature', 20, 95),
  /** … and the room temperature the curve is set for (supply = room at that outdoor temperature). */
  curveRoom: temperature('The heating curve’s room temperature', 15, 25),
  /** The circuit's limits, °C. */
  minSupply: temperature('The lowest supply temperature', 15, 60),
  maxSupply: temperature('The highest supply temperature', 25, 95),
  mode: CircuitModeSchema,
  output: CircuitOutputInputSchema.nullable(),
  /** The rooms the circuit serves; each room is in one circuit at most. */
  unitIds: z.array(z.uuid()).max(2000, 'A circuit serves at most 2000 rooms.'),
};

type Temperatures = Partial<Record<'designSupply' | 'designReturn' | 'minSupply' | 'maxSupply', number>>;

/** Cross-field rules; on an update they apply to the fields given together. */
function checkTemperatures(value: Temperatures, ctx: z.RefinementCtx) {
  if (
    value.designSupply !== undefined &&
    value.designReturn !== undefined &&
    value.designReturn >= value.designSupply
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['designReturn'],
      message: 'The design return temperature must be below the design supply temperature.',
      params: {
        code: 'circuit_return_above_supply',
        params: { supply: value.designSupply, return: value.designReturn },
      },
    });
  }
  if (value.minSupply !== undefined && value.maxSupply !== undefined && value.minSupply >= value.maxSupply) {
    ctx.addIssue({
      code: 'custom',
      path: ['maxSupply'],
      message: 'The highest supply temperature must be above the lowest.',
      params: { code: 'circuit_supply_limits', params: { min: value.minSupply, max: value.maxSupply } },
    });
  }
}

export const HeatingCircuitCreateSchema = z
  .object({
    name: fields.name,
    buildingId: fields.buildingId,
    generatorType: fields.generatorType,
    designSupply: fields.designSupply.default(70),
    designReturn: fields.designReturn.default(55),
    designOutdoor: fields.designOutdoor.default(-12),
    curveSupply: fields.curveSupply.default(70),
    curveRoom: fields.curveRoom.default(20),
    minSupply: fields.minSupply.default(25),
    maxSupply: fields.maxSupply.default(75),
    mode: fields.mode.default('shadow'),
    output: fields.output.default(null),
    unitIds: fields.unitIds.default([]),
  })
  .superRefine(checkTemperatures);
export type HeatingCircuitCreate = z.input<typeof HeatingCircuitCreateSchema>;

export const HeatingCircuitUpdateSchema = z
  .object({
    name: fields.name.optional(),
    generatorType: fields.generatorType.optional(),
    designSupply: fields.designSupply.optional(),
    designReturn: fields.designReturn.optional(),
    designOutdoor: fields.designOutdoor.optional(),
    curveSupply: fields.curveSupply.optional(),
    curveRoom: fields.curveRoom.optional(),
    minSupply: fields.minSupply.optional(),
    maxSupply: fields.maxSupply.optional(),
    mode: fields.mode.optional(),
    output: fields.output.optional(),
    unitIds: fields.unitIds.optional(),
  })
  .superRefine(checkTemperatures);
export type HeatingCircuitUpdate = z.input<typeof HeatingCircuitUpdateSchema>;

/** A room that asked for a higher supply temperature, with how often. */
export const HoldingRoomSchema = z.object({
  unitId: z.uuid(),
  name: z.string(),
  /** Requests summed over the steps counted. */
  requests: z.number().int(),
});
export type HoldingRoom = z.infer<typeof HoldingRoomSchema>;

/** The last step of the circuit's controller. */
export const CircuitStateSchema = z.object({
  at: z.iso.datetime(),
  /** Should the heat generator run. */
  enabled: z.boolean(),
  reason: z.enum(CIRCUIT_REASONS),
  /** The recommended supply temperature, °C; null while off. */
  supplySetpoint: z.number().nullable(),
  /** The heating curve's supply temperature at the outdoor temperature, °C; null without one. */
  curveSupply: z.number().nullable(),
  /** The building's outdoor temperature this hour, °C; null when none is known. */
  outdoor: z.number().nullable(),
  /** Radiator-weighted mean valve opening of the rooms that report, %. */
  demandPercent: z.number(),
  roomsNeedingHeat: z.number().int(),
  /** Rooms asking for more this step, most first. */
  holdingUp: z.array(HoldingRoomSchema),
});
export type CircuitState = z.infer<typeof CircuitStateSchema>;

/**
 * One write of the circuit's command to its output (mode `on`, decision 0077): what was written,
 * whether the generator took it, the output's one-line detail, what it read back, and whether the
 * read-back showed a change by hand (an override, respected for an hour).
 */
export const CircuitWriteSchema = z.object({
  at: z.iso.datetime(),
  enabled: z.boolean(),
  /** °C; null while off or without a setpoint (only the enable was written). */
  supplySetpoint: z.number().nullable(),
  ok: z.boolean(),
  detail: z.string(),
  readBackEnabled: z.boolean().nullable(),
  /** °C as read back; null where the output does not read it back. */
  readBackSetpoint: z.number().nullable(),
  override: z.boolean(),
});
export type CircuitWrite = z.infer<typeof CircuitWriteSchema>;

export const CircuitWritesQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'The limit is at least 1.')
    .max(200, 'The limit is at most 200.')
    .default(20),
});
export const CircuitWritesSchema = z.object({ writes: z.array(CircuitWriteSchema) });
export type CircuitWrites = z.infer<typeof CircuitWritesSchema>;

export const HeatingCircuitSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  buildingId: z.uuid(),
  generatorType: GeneratorTypeSchema,
  designSupply: z.number(),
  designReturn: z.number(),
  designOutdoor: z.number(),
  curveSupply: z.number(),
  curveRoom: z.number(),
  minSupply: z.number(),
  maxSupply: z.number(),
  mode: CircuitModeSchema,
  /** Where the command goes in mode `on`; null for none. */
  output: CircuitOutputSchema.nullable(),
  unitIds: z.array(z.uuid()),
  createdAt: z.iso.datetime(),
  /** The last step; null before the first (or in mode `off`). */
  state: CircuitStateSchema.nullable(),
  /** The rooms that asked most over the last 7 days (up to 5): candidates for a bigger radiator. */
  holdingUpWeek: z.array(HoldingRoomSchema),
  /** The newest write to the output (mode `on`); null before the first. */
  lastWrite: CircuitWriteSchema.nullable(),
});
export type HeatingCircuit = z.infer<typeof HeatingCircuitSchema>;

export const HeatingCircuitListQuerySchema = PageQuerySchema.extend({
  buildingId: z.uuid().optional(),
});
export const HeatingCircuitPageSchema = pageOf(HeatingCircuitSchema);
export type HeatingCircuitPage = z.infer<typeof HeatingCircuitPageSchema>;

/** One 5-minute step as kept for the chart. */
export const CircuitReadingSchema = z.object({
  at: z.iso.datetime(),
  outdoor: z.number().nullable(),
  curveSupply: z.number().nullable(),
  supplySetpoint: z.number().nullable(),
  demandPercent: z.number(),
  enabled: z.boolean(),
  /** The room asking most this step, if any. */
  holdingUnitId: z.uuid().nullable(),
});
export type CircuitReading = z.infer<typeof CircuitReadingSchema>;

/** Readings are kept 30 days; one request covers at most 14 days (the chart's two weeks). */
export const CIRCUIT_READINGS_MAX_DAYS = 14;
export const CircuitReadingsQuerySchema = z
  .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), {
    path: ['to'],
    message: '`to` must be after `from`.',
  })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= CIRCUIT_READINGS_MAX_DAYS * 86_400_000, {
    path: ['to'],
    message: `At most ${CIRCUIT_READINGS_MAX_DAYS} days of readings per request.`,
  });
export const CircuitReadingsSchema = z.object({ readings: z.array(CircuitReadingSchema) });
export type CircuitReadings = z.infer<typeof CircuitReadingsSchema>;
