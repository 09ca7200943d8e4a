/**
 * The demo building (issue 6 "Embedded default and simulator"): a company with an admin who can
 * sign in at once, a group with a winter plan, eight offices with a valve each (all four codec
 * models, plus an Elsys room sensor) and a gateway. Names are German, as the product's default.
 */
import type { ModelId } from '../lorawan/codecs/codec.ts';

export const DEMO_LOGIN = {
  email: 'demo@heizplan.example',
  password: 'heizplan-demo',
  name: 'Demo Verwaltung',
};
export const DEMO_COMPANY = 'Demo-Bürohaus';
export const DEMO_GROUP = 'Bürohaus Nord';
export const DEMO_GATEWAY = 'b827ebfffe6c2a11';

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
