/**
 * Limits the web app shows or checks on screens of its first load, kept apart from the zod
 * schemas that enforce them: importing a value from a schema module builds all of its schemas,
 * and with them zod, which the first load leaves out (decision 0045).
 */

/** Units one bulk creation may make at most (`POST …/units/bulk`). */
export const BULK_UNIT_MAX = 500;

/**
 * Units one bulk change or deletion from the rooms list may name at most
 * (`POST …/units/bulk-update`, `…/units/bulk-delete`, `…/units/bulk-qr-code`): a large school's
 * rooms, in one transaction.
 */
export const BULK_EDIT_UNIT_MAX = 1000;
