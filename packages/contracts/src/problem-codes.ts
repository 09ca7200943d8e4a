/**
 * Machine-readable reasons a problem+json answer carries in `code` (and per field in
 * `errors[].code`): the web shows every server message in the user's language by
 * translating the code with its `params` (`web/src/locales/<lng>/problems.json`), never by
 * matching the English `detail`. A web test checks that each code has a German and an English
 * text, so a code added here without its translations fails.
 */
export const PROBLEM_CODES = [
  /** Another active seasonal plan of the same unit or group covers some of these days. params: plan, planId, from, to */
  'plan_overlap_seasonal',
  /** Another active specific-days plan of the same unit or group has some of these dates. params: plan, planId, dates */
  'plan_overlap_dates',
  /** A preview start further than PREVIEW_FROM_MAX_YEARS from now. params: years */
  'preview_from_out_of_range',
  /** An occupant's setpoint off the step grid. params: step (°C) */
  'setpoint_step',
  /** An occupant's setpoint outside the unit's wall control limits. params: min, max (°C) */
  'setpoint_outside_limits',
  /** A setpoint change while the unit is paused. */
  'unit_paused',
  /** A temperature above the company's range (spec §5). params: min, max (°C) */
  'out_of_range',
  /** A temperature below the company's range. params: min, max (°C) */
  'below_range',
  /** Engine: 'Invalid schedule!' (spec §5). */
  'plan_invalid_schedule',
  /** Engine: 'Invalid time!' (spec §5). */
  'plan_invalid_time',
  'unknown_unit',
  'unknown_group',
  'unknown_event',
  'unknown_plan',
  /** Setup step 2: no invite with this code. */
  'invite_code_invalid',
  /** A unit name the company already uses, ignoring case and spaces (decision 0044). params: name */
  'unit_name_taken',
  /** Bulk creation of several units from a pattern without `{n}`. */
  'unit_pattern_without_n',
  /** Wall control minimum above its maximum. */
  'wall_control_order',
  // Bulk changes from the rooms list (`…/units/bulk-update`, `bulk-delete`, `bulk-qr-code`).
  /** A bulk change naming no unit. */
  'bulk_units_none',
  /** A bulk change naming more units than allowed. params: max */
  'bulk_units_too_many',
  /** A bulk change that changes nothing. */
  'bulk_no_changes',
  /** A bulk change with one wall control limit but not the other. */
  'bulk_wall_control_pair',
  /** Company minimum temperature not below its maximum. */
  'company_range_order',
  'group_name_taken',
  /** A closure whose end is not after its start. */
  'closure_end_not_after_start',
  /** A closure longer than CLOSURE_MAX_DAYS. params: days */
  'closure_too_long',
  /** A closure of scope buildings/groups/units without any. */
  'closure_no_targets',
  /** A closure's recurrence that is no RRULE it may carry (contracts' recurrence.ts): unreadable, no FREQ or one below DAILY, a DTSTART, over 500 characters. */
  'invalid_recurrence',
  'unknown_closure',
  'unknown_building',
  /** A unit's floor that its building does not list. params: floor */
  'unknown_floor',
  /** A holiday region that the building's federal state does not have. params: region */
  'unknown_holiday_region',
  'unknown_building_day',
  /** A building's outdoor sensor that is no sensor model (a valve). params: id */
  'outdoor_sensor_not_sensor',
  /** A building's outdoor sensor that is assigned to a unit. params: id */
  'outdoor_sensor_assigned',
  /** An own day on a date the building already has one for. params: date */
  'building_day_exists',
  /** More own days than a building keeps. params: max */
  'building_days_full',
  /** An uploaded calendar file that is no iCalendar data. */
  'invalid_ics',
  'unknown_booking_feed',
  /** A booking feed address on a loopback, link-local, private or unique-local address. params: address */
  'booking_feed_address_private',
  /** A calendar layers window whose end is not after its start. */
  'calendar_range_end_not_after_start',
  /** A calendar layers window longer than CALENDAR_LAYERS_MAX_DAYS. params: days */
  'calendar_range_too_long',
  /** An export window (the heating log's) whose end is not after its start. */
  'export_range_end_not_after_start',
  /** An export window longer than its limit (HEATING_LOG_EXPORT_MAX_DAYS). params: days */
  'export_range_too_long',
  /** A feedback window (a room's occupant feedback) whose end is not after its start. */
  'feedback_range_end_not_after_start',
  /** A feedback window longer than FEEDBACK_MAX_DAYS. params: days */
  'feedback_range_too_long',
  /** A manual or occupant's setpoint change while a closure holds the unit (decision 0051). */
  'unit_closed',
  'event_end_before_start',
  'event_end_in_past',
  'event_end_required',
  'event_no_units',
  'event_past_read_only',
  'event_running_only_shorten',
  'event_not_running',
  /** params: id (the DevEUI) */
  'device_taken',
  'device_not_found',
  /** The last device while the subscription is active. */
  'last_device',
  /** params: eui */
  'gateway_taken',
  'gateway_not_found',
  /** No QR code left in the company's allowance. */
  'qr_allowance_exhausted',
  /** A bulk enable of more QR codes than the allowance has free; nothing changed. params: free, needed */
  'qr_allowance_short',
  'qr_disabled',
  'email_taken',
  'email_already_verified',
  /** Account changes with an external identity provider. */
  'accounts_external',
  'last_admin',
  /** A group plan while units of the group have their own active plan. params: units (names) */
  'group_plans_unavailable',
  /** Request validation: not an e-mail address. */
  'invalid_email',
  /** A member whose role lacks the right for this (decision 0022). params: capability */
  'role_forbidden',
  /** An invite with a role while the company's role choice is off. */
  'invite_role_choice_off',
  /** Registering a device while every licence is in use. */
  'licences_exhausted',
  /** Assigning a device while the company has more devices than licences. */
  'devices_unlicensed',
  /** Fewer licences than devices in use. params: devices */
  'licences_below_devices',
  /** A checkout while a subscription runs. */
  'subscription_exists',
  /** A subscription change without a subscription. */
  'subscription_missing',
  /** A change of a subscription that has ended. */
  'subscription_ended',
  /** A billing call with BILLING_PROVIDER=none. */
  'billing_off',
  /** A change Stripe takes on its own page (interval, payment method). */
  'billing_portal_only',
  /** A Stripe subscription whose confirmation has not arrived yet. */
  'subscription_unconfirmed',
  /** A webhook endpoint that is not https://. */
  'webhook_https_required',
  /** A webhook endpoint on a loopback, link-local, private or unique-local address. params: address */
  'webhook_address_private',
  /** `PUT /me/password` with a current password that does not match. */
  'current_password_wrong',
  /** Too many wrong passwords; Retry-After says when to try again. */
  'too_many_attempts',
  /** A TOTP or recovery code that does not match (or was used already). */
  'totp_code_wrong',
  /** Starting a TOTP enrolment while a confirmed one guards the sign-in. */
  'totp_already_enabled',
  /** Confirming a TOTP without a started enrolment. */
  'totp_not_started',
  /** Disabling a TOTP the account does not have. */
  'totp_not_enabled',
  /** A passkey answer whose challenge is unknown, used or older than 5 minutes. */
  'passkey_challenge_expired',
  /** A passkey answer that fails the WebAuthn checks (signature, origin, flags, algorithm). */
  'passkey_not_verified',
  /** Registering a passkey whose credential is registered already. */
  'passkey_exists',
  /** The company requires a second factor (TOTP or passkey) of this member, who has none (decision 0078). */
  'second_factor_required',
  /** An admin resetting their own second factor; another admin has to. */
  'second_factor_reset_self',
  /** Adding a sign-in factor without the password the step-up asks for. params: field */
  'step_up_required',
  /** More licences in one order than allowed. params: max */
  'licence_order_too_large',
  /** Fewer licences than enabled QR codes (one licence each). params: qrCodes */
  'licences_below_qr_codes',
  /** Paying by invoice (or switching to it) while the company keeps no billing address. */
  'billing_address_required',
  /** A checkout id that is not the company's latest checkout (`/success` opened without one). */
  'checkout_unknown',
  /** An API token id that is not one of the company's. */
  'unknown_api_token',
  /** A building's meter reading (month and carrier) that is not there. */
  'unknown_meter_reading',
  'unknown_device_profile',
  'device_profile_name_taken',
  'device_profile_model',
  /** A company at its most API tokens. params: max */
  'api_tokens_full',
  /** An API token calling an endpoint outside its company's. */
  'api_token_scope',
  'api_token_buildings',
  // Bulk import of units and devices (decision 0063): the file, then its rows.
  /** An import file over the size limit (413). params: maxMb */
  'import_file_too_large',
  /** An import file that is neither CSV nor XLSX that can be read. */
  'import_file_unreadable',
  /** An import file without a header row or without rows below it. */
  'import_file_empty',
  /** An import file with too many rows. params: max */
  'import_too_many_rows',
  /** A commit refused because rows have problems (listed in `errors`). params: count */
  'import_has_problems',
  /** More devices in the file than free licences. params: free, needed */
  'import_licences_short',
  /** Data changed while the import was written (e.g. a DevEUI registered meanwhile); nothing was imported. */
  'import_conflict',
  /** A required field with neither a column nor a default. */
  'import_field_unmapped',
  /** A mapped column the file does not have. params: column */
  'import_column_missing',
  /** A row without a value for a required field. */
  'import_value_required',
  /** A cell with a NUL character or an unpaired surrogate. */
  'import_text_invalid',
  /** A cell longer than its field allows. params: max */
  'import_text_too_long',
  /** A DevEUI or JoinEUI that is not 16 hex digits. params: value */
  'import_eui_invalid',
  /** An AppKey that is not 32 hex digits (the value is not repeated). */
  'import_app_key_invalid',
  /** A device model that is none of the codecs'. params: value */
  'import_model_unknown',
  /** A wall-control limit that is no number. params: value */
  'import_number_invalid',
  /** A building name the company does not have. params: name */
  'import_building_unknown',
  /** A group name the company does not have. params: name */
  'import_group_unknown',
  /** A unit name the company does not have. params: name */
  'import_unit_unknown',
  /** A floor the row's building does not list. params: floor, building */
  'import_floor_unknown',
  /** A floor on a row without a building. params: floor */
  'import_floor_without_building',
  /** The same DevEUI or unit name on an earlier row of the file. params: value, row */
  'import_duplicate',
  /** A DevEUI the company has registered already. params: id */
  'import_device_exists',
  /** A DevEUI registered elsewhere (which company is not said). params: id */
  'import_device_taken',
  /** A heating circuit that does not exist in the company. */
  'heating_circuit_not_found',
  /** A heating circuit name the building has already. params: name */
  'heating_circuit_name_taken',
  /** A room of a heating circuit that is not in the circuit's building. params: id */
  'circuit_unit_not_in_building',
  /** A room that another heating circuit serves already. params: id */
  'circuit_unit_taken',
  /** A heating circuit's lowest supply temperature at or above its highest. params: min, max (°C) */
  'circuit_supply_limits',
  /** A heating circuit's design return at or above its design supply. params: supply, return (°C) */
  'circuit_return_above_supply',
  /** Mode `on` for a heating circuit without an output to write to. */
  'circuit_on_without_output',
  /** Mode `on` for a heating circuit whose output cannot be written by the server. params: kind */
  'circuit_output_cannot_act',
  /** Mode `on` with a LoRaWAN relay that is not a paired LT-22222-L of the company. params: devEui */
  'circuit_relay_not_a_device',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** Values filling a code's translation (names, numbers in °C, 'MM-DD' or ISO dates). */
export type ProblemParams = Record<string, string | number>;
