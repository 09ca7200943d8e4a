/**
 * The demo building ("Embedded default and simulator"): a company with an admin who can
 * sign in at once, a group with a winter plan, eight offices with a valve each (all four codec
 * models, plus an Elsys room sensor) and a gateway. Names are German, as the product's default.
 * Some devices misbehave so the alert centre has something to show from the start.
 */
import { DEMO_EMAIL } from '@heizplan/contracts/demo';
import { DateTime } from 'luxon';
import type { DeviceFaults } from '../../../tools/simulator/simulator.ts';
import type { ModelId } from '../lorawan/codecs/codec.ts';

export const DEMO_LOGIN = {
  email: DEMO_EMAIL,
  password: 'heizplan-demo',
  name: 'Demo Verwaltung',
};
export const DEMO_COMPANY = 'Demo-Bürohaus';
/** Licences of the demo's subscription: more than its devices, so some are free. */
export const DEMO_LICENCES = 12;
export const DEMO_GROUP = 'Bürohaus Nord';
export const DEMO_GATEWAY = 'b827ebfffe6c2a11';

/**
 * The demo building's heating circuit: an air-to-water heat pump on the installer's curve of
 * 55 °C at −12 °C for 20 °C rooms. Seeded in shadow mode (it shows the supply temperature the rooms
 * ask for next to the curve's); the server's first start with the demo connects it to the demo heat
 * pump's Modbus stand-in and switches it on (`connectDemoCircuit`), so the heat pump follows its rooms.
 */
export const DEMO_CIRCUIT = {
  name: 'Heizkreis Wärmepumpe',
  generatorType: 'heat_pump_air',
  designSupply: 55,
  designReturn: 45,
  designOutdoor: -12,
  curveSupply: 55,
  curveRoom: 20,
  minSupply: 25,
  maxSupply: 60,
  mode: 'shadow',
} as const;

/** Weekdays 06:30 21 °C, 22:00 17 °C; weekends 08:00 20 °C, 22:00 17 °C (Europe/Berlin). */
export const DEMO_SWITCH_POINTS = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
  {
    day,
    hour: day <= 5 ? 6 : 8,
    minute: day <= 5 ? 30 : 0,
    temperature: day <= 5 ? 21 : 20,
    ignoreWallControl: false,
  },
  { day, hour: 22, minute: 0, temperature: 17, ignoreWallControl: false },
]);

export interface DemoDevice {
  devEui: string;
  model: ModelId;
  /** Index into DEMO_UNITS. */
  unit: number;
}

/**
 * The demo's building (decision 0052): in Munich, so Bavaria's public holidays apply, kept in
 * economy mode on them.
 */
export const DEMO_BUILDING = {
  name: 'Haus Leopoldstraße',
  street: 'Leopoldstraße 12',
  postcode: '80802',
  city: 'München',
  state: 'BY' as const,
  floors: ['EG', '1. OG', '2. OG'],
  publicHolidays: 'closure' as const,
  holidayMode: 'economy' as const,
  /** WGS 84; its weather comes from the demo's stand-in (decision 0057). */
  latitude: 48.1598,
  longitude: 11.5856,
};

/** The floor of each of DEMO_UNITS, by index. */
export const DEMO_UNIT_FLOORS = ['1. OG', '1. OG', '1. OG', '1. OG', '2. OG', '2. OG', '2. OG', 'EG'];

export const DEMO_UNITS = [
  'Büro 1.01',
  'Büro 1.02',
  'Büro 1.03',
  'Besprechung 1.10',
  'Büro 2.01',
  'Büro 2.02',
  'Teeküche 2',
  'Empfang',
];

const models: ModelId[] = ['mclimate-vicki', 'milesight-wt101', 'micropelt-mlr003', 'mclimate-vicki'];
export const DEMO_DEVICES: DemoDevice[] = [
  ...DEMO_UNITS.map((_, unit) => ({
    devEui: `70b3d5e75e0000${(unit + 1).toString(16).padStart(2, '0')}`,
    model: models[unit % models.length] as ModelId,
    unit,
  })),
  { devEui: 'a81758fffe0a0001', model: 'elsys-ers', unit: 3 },
];

/**
 * The demo building's device profile for its Vickis (decision 0062): open-window detection on,
 * the ring locked to 16–26 °C. The simulated valves take it within minutes of the first start;
 * the silent one stays pending.
 */
export const DEMO_PROFILE = {
  name: 'Büro Standard',
  model: 'mclimate-vicki' as ModelId,
  config: {
    keepAliveMinutes: 10,
    openWindow: { enabled: true, durationMinutes: 15, deltaK: 1.5 },
    childLock: true,
    childLockKeptOffline: true,
    temperatureRange: { min: 16, max: 26 },
    temperatureOffset: 0,
  },
};

/** Spreading factors of the simulated devices, by index of DEMO_DEVICES: near and far from the gateway. */
export const DEMO_SPREADING_FACTORS = [7, 9, 7, 10, 12, 8, 7, 9, 7];

/** Büro 2.01's valve went silent two days before the demo was created and stays silent. */
export const DEMO_SILENT = { devEui: '70b3d5e75e000005', silentForHours: 48 };

/**
 * Büro 2.02's valve (Milesight, battery in %) drains from 60 % two weeks back to 16 % now, below
 * the 20 % threshold, and goes on draining while the simulator runs.
 */
export const DEMO_DRAINING = { devEui: '70b3d5e75e000006', from: 60, to: 16 };

/** Faults the running demo injects, minutes after the server started. */
export const DEMO_FAULT_SCRIPT: { afterMinutes: number; devEui: string; faults: DeviceFaults }[] = [
  { afterMinutes: 2, devEui: '70b3d5e75e000001', faults: { openWindow: true } },
  { afterMinutes: 4, devEui: '70b3d5e75e000002', faults: { errors: ['calibrationFailed'] } },
  { afterMinutes: 6, devEui: '70b3d5e75e000007', faults: { noHeat: true } },
  // The window closes again; its alert resolves by itself ten minutes later.
  { afterMinutes: 14, devEui: '70b3d5e75e000001', faults: { openWindow: false } },
];

/** The reception stays heated through the Christmas closure: the demo's exception unit. */
export const DEMO_CLOSURE_EXCEPTION = 7;

/**
 * The demo's closure: the coming (or running) Christmas break, 23 December 18:00 to 4 January
 * 05:00 Berlin time, in frost protection for the whole company except the reception.
 */
export function demoChristmasClosure(now: Date) {
  const zone = { zone: 'Europe/Berlin' };
  const breakEnd = (year: number) => DateTime.fromObject({ year, month: 1, day: 4, hour: 5 }, zone);
  const local = DateTime.fromJSDate(now, zone);
  // Until 4 January 05:00 the break that began last December is still the one to show.
  const year = local < breakEnd(local.year) ? local.year - 1 : local.year;
  const start = DateTime.fromObject({ year, month: 12, day: 23, hour: 18 }, zone);
  const end = breakEnd(year + 1);
  return {
    name: 'Weihnachtsferien',
    note: 'Die Rezeption bleibt für den Notdienst beheizt.',
    start: start.toJSDate(),
    end: end.toJSDate(),
    mode: 'frost' as const,
    scope: 'company' as const,
  };
}
