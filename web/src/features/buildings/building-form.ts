/**
 * The building dialog's form: its values, named as the API's fields so the contract's and the
 * server's messages land on them, and its schema: the floors as rows of an editable list (each a
 * `{ name }` for react-hook-form's field array), "keine" region as '' and no state chosen yet as
 * '', the coordinates as typed (decimal comma or point, '' for none), "keiner" outdoor sensor as
 * '', the occupants' limits as typed ('' for the company's), checked by the contracts'
 * `BuildingInputSchema` rules, with no floor named twice.
 */
import {
  BUILDING_FLOORS_MAX,
  type Building,
  BuildingInputSchema,
  type FederalState,
  type HolidayTreatment,
  HolidayTreatmentSchema,
} from '@heizplan/contracts/buildings';
import { type HeatingMode, HeatingModeSchema } from '@heizplan/contracts/closures';
import { z } from 'zod';
import { occupantLimitFormFields } from '../../components/occupant-limit-fields.tsx';
import { numberOrNull } from '../../components/ui/form.tsx';
import { numberInputText } from '../../lib/format.ts';

export interface BuildingForm {
  name: string;
  street: string;
  postcode: string;
  city: string;
  /** '' until one is chosen. */
  state: FederalState | '';
  /** A region code of the state, '' for none. */
  region: string;
  floors: Array<{ name: string }>;
  publicHolidays: HolidayTreatment;
  holidayMode: HeatingMode;
  schoolHolidays: boolean;
  /** Degrees as typed ("48,16"); '' for none. */
  latitude: string;
  longitude: string;
  /** The outdoor sensor's device id, '' for none. */
  outdoorSensorId: string;
  /** Occupants' ceiling (°C) and leeway (K) as typed; '' for the company's. */
  occupantMaxTemperature: string;
  occupantBand: string;
}

/** A new building: nothing chosen yet, public holidays without effect (the API's default). */
export const emptyForm = (): BuildingForm => ({
  name: '',
  street: '',
  postcode: '',
  city: '',
  state: '',
  region: '',
  floors: [],
  publicHolidays: 'ignore',
  holidayMode: 'frost',
  schoolHolidays: false,
  latitude: '',
  longitude: '',
  outdoorSensorId: '',
  occupantMaxTemperature: '',
  occupantBand: '',
});

/** The form of `building`; coordinates with the decimal separator of `language` (`de`: comma). */
export const formOf = (building: Building, language: string): BuildingForm => ({
  name: building.name,
  street: building.street,
  postcode: building.postcode,
  city: building.city,
  state: building.state,
  region: building.region ?? '',
  floors: building.floors.map((name) => ({ name })),
  publicHolidays: building.publicHolidays,
  holidayMode: building.holidayMode,
  schoolHolidays: building.schoolHolidays,
  latitude: numberInputText(building.latitude, language),
  longitude: numberInputText(building.longitude, language),
  outdoorSensorId: building.outdoorSensorId ?? '',
  occupantMaxTemperature: numberInputText(building.occupantMaxTemperature, language),
  occupantBand: numberInputText(building.occupantBand, language),
});

/** The code of the issue a floor named twice raises; the dialog words it. */
export const DUPLICATE_FLOOR = 'duplicate_floor';

const contract = BuildingInputSchema.shape;
/** The contract's rules for the floors: each name, and how many. */
const floorList = contract.floors.unwrap();

/** The request body a valid form gives. */
export type BuildingBody = z.output<typeof buildingFormSchema>;

/**
 * The contract's rules on the form's own fields, so every message lands on the field it names
 * (a floor's on its row's `name`) and all show at once; a floor named twice (ignoring case) is
 * refused too. Then the body, checked by the contract once more.
 */
export const buildingFormSchema = z
  .object({
    name: contract.name,
    street: contract.street,
    postcode: contract.postcode,
    city: contract.city,
    // '' until one is chosen.
    state: z.string().pipe(contract.state),
    region: z.string(),
    floors: z
      .array(z.object({ name: floorList.element }))
      .max(BUILDING_FLOORS_MAX)
      .superRefine((floors, ctx) => {
        const seen = new Set<string>();
        floors.forEach((floor, index) => {
          const key = floor.name.toLocaleLowerCase('de');
          if (seen.has(key))
            ctx.addIssue({ code: 'custom', path: [index, 'name'], params: { own: DUPLICATE_FLOOR } });
          seen.add(key);
        });
      }),
    publicHolidays: HolidayTreatmentSchema,
    holidayMode: HeatingModeSchema,
    schoolHolidays: z.boolean(),
    latitude: z.string().transform(numberOrNull).pipe(contract.latitude.unwrap()),
    longitude: z.string().transform(numberOrNull).pipe(contract.longitude.unwrap()),
    outdoorSensorId: z.string(),
    ...occupantLimitFormFields,
  })
  .transform(
    (form): z.input<typeof BuildingInputSchema> => ({
      ...form,
      region: form.region.trim() || null,
      outdoorSensorId: form.outdoorSensorId || null,
      floors: form.floors.map((floor) => floor.name),
    }),
  )
  .pipe(BuildingInputSchema);

/** Server field names of the floors (`floors.2`) → the form's (`floors.2.name`). */
export const floorErrorNames = (count: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`floors.${i}`, `floors.${i}.name`]));
