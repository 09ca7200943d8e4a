/**
 * The booking feed dialog's form: its values, named as the API's fields so the contract's and the
 * server's messages land on them, and its schema: the contract's own field rules (so every
 * message shows at once, under its field), then the request body, checked by
 * `BookingFeedInputSchema` once more. An ICS feed sends no user name or password; an empty
 * password leaves a stored one unchanged; the room itself is never one of its linked rooms.
 */
import {
  type BookingFeed,
  BookingFeedInputSchema,
  type BookingFeedKind,
  BookingFeedKindSchema,
  type BookingFeedUpdate,
  DEFAULT_IGNORE_KEYWORD,
  DEFAULT_PREHEAT_MINUTES,
} from '@heizplan/contracts/booking-feeds';
import { z } from 'zod';

export interface BookingFeedForm {
  name: string;
  kind: BookingFeedKind;
  /** '' until a room is chosen. */
  unitId: string;
  linkedUnitIds: string[];
  url: string;
  username: string;
  /** '' sends none: a new feed has none, an edited one keeps its stored password. */
  password: string;
  minDurationMinutes: number;
  ignoreKeyword: string;
  preheatMinutes: number;
  /** null: the highest temperature of the day's plan. */
  temperature: number | null;
}

export const emptyForm = (): BookingFeedForm => ({
  name: '',
  kind: 'ics',
  unitId: '',
  linkedUnitIds: [],
  url: '',
  username: '',
  password: '',
  minDurationMinutes: 0,
  ignoreKeyword: DEFAULT_IGNORE_KEYWORD,
  preheatMinutes: DEFAULT_PREHEAT_MINUTES,
  temperature: null,
});

export const formOf = (feed: BookingFeed): BookingFeedForm => ({
  name: feed.name,
  kind: feed.kind,
  unitId: feed.unit.id,
  linkedUnitIds: feed.linkedUnits.map((u) => u.id),
  url: feed.url,
  username: feed.username,
  password: '',
  minDurationMinutes: feed.minDurationMinutes,
  ignoreKeyword: feed.ignoreKeyword,
  preheatMinutes: feed.preheatMinutes,
  temperature: feed.temperature,
});

const contract = BookingFeedInputSchema.shape;

/** The request body a valid form gives. */
export type BookingFeedBody = z.output<typeof bookingFeedFormSchema>;

export const bookingFeedFormSchema = z
  .object({
    name: contract.name,
    kind: BookingFeedKindSchema,
    unitId: contract.unitId,
    linkedUnitIds: contract.linkedUnitIds.unwrap(),
    url: z.string().trim().min(1).pipe(contract.url),
    username: contract.username.unwrap(),
    password: contract.password.unwrap(),
    minDurationMinutes: contract.minDurationMinutes.unwrap(),
    ignoreKeyword: contract.ignoreKeyword.unwrap(),
    preheatMinutes: contract.preheatMinutes.unwrap(),
    temperature: contract.temperature.unwrap(),
  })
  .transform(
    (form): z.input<typeof BookingFeedInputSchema> => ({
      ...form,
      linkedUnitIds: form.linkedUnitIds.filter((id) => id !== form.unitId),
      username: form.kind === 'caldav' ? form.username : '',
      password: form.kind === 'caldav' && form.password !== '' ? form.password : undefined,
    }),
  )
  .pipe(BookingFeedInputSchema);

/**
 * The update of `feed` a valid form asks for: everything but the address when it is still the
 * one the server showed (with any password in it masked as `***`, which must not be stored), and
 * no password when none was typed.
 */
export function updateOf(feed: BookingFeed, body: BookingFeedBody): BookingFeedUpdate {
  const { url, password, ...rest } = body;
  return {
    ...rest,
    ...(url === feed.url ? {} : { url }),
    ...(password === undefined ? {} : { password }),
  };
}
