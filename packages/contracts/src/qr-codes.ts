/**
 * QR codes of units for the public heating view (spec §2 "Units screen", §4):
 * `GET|POST|DELETE /api/companies/{companyId}/units/{unitId}/qr-code`,
 * `POST …/qr-code/regenerate` and `GET /api/companies/{companyId}/qr-codes` (all enabled codes,
 * for the print sheet). The allowance is one QR code per licence of the company;
 * enabling beyond it answers 409 with QR_ALLOWANCE_MESSAGE, and licences cannot be reduced
 * below the enabled codes. Without billing (`BILLING_PROVIDER=none`) it is unlimited, said by
 * `unlimited: true` (`allowance` and `remaining` are null then: show "unlimited", not a blank).
 */
import { z } from 'zod';
import { BulkUnitIdsSchema } from './heating.ts';

export const QR_ALLOWANCE_MESSAGE = 'No QR codes remaining. Each licence allows one QR code.';

export const QrAllowanceSchema = z.object({
  /** True without billing: any number of QR codes may be enabled. */
  unlimited: z.boolean(),
  /** QR codes the company may have enabled at once; null = unlimited. */
  allowance: z.number().int().nullable(),
  /** Enabled QR codes. */
  used: z.number().int(),
  /** allowance − used, never below 0; null = unlimited. */
  remaining: z.number().int().nullable(),
});
export type QrAllowance = z.infer<typeof QrAllowanceSchema>;

export const QrCodeSchema = z.object({
  unitId: z.uuid(),
  unitName: z.string(),
  /** The public link `${PUBLIC_URL}/heating-view/{token}`. */
  url: z.string(),
  token: z.string(),
  enabledAt: z.iso.datetime(),
});
export type QrCode = z.infer<typeof QrCodeSchema>;

/** A unit's QR state: `code` is null while disabled. */
export const UnitQrStateSchema = QrAllowanceSchema.extend({ code: QrCodeSchema.nullable() });
export type UnitQrState = z.infer<typeof UnitQrStateSchema>;

export const QrCodeListSchema = QrAllowanceSchema.extend({ results: z.array(QrCodeSchema) });
export type QrCodeList = z.infer<typeof QrCodeListSchema>;

/**
 * `POST /api/companies/{companyId}/units/bulk-qr-code`: enables (`enabled: true`) or disables the
 * QR codes of `unitIds`, all or nothing. Enabling counts only the units without a code yet; more
 * than the allowance has free answers 409 `qr_allowance_short` (params free, needed) and changes
 * nothing.
 */
export const UnitQrBulkSchema = z.object({ unitIds: BulkUnitIdsSchema, enabled: z.boolean() });
export type UnitQrBulk = z.infer<typeof UnitQrBulkSchema>;

/** Answer of a bulk QR change: units covered (`count`), codes enabled or disabled by it (`changed`). */
export const UnitQrBulkResultSchema = QrAllowanceSchema.extend({
  count: z.number().int(),
  changed: z.number().int(),
});
export type UnitQrBulkResult = z.infer<typeof UnitQrBulkResultSchema>;
