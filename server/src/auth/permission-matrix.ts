/**
 * The permission matrix (docs/architecture.md, decision 0022): for every operation of the
 * OpenAPI document, who may call it. Company-scoped operations name the capability a member's
 * role needs (`packages/contracts/src/permissions.ts`); the services enforce it through
 * `requireMember`, strangers to the company get 404 and members without the capability 403.
 * `signed-in` operations concern the caller themselves (profile, own companies, joining by
 * code); `public` ones need no login (the occupants' page, the sign-in configuration, Stripe's
 * signed webhook); `operator` ones take the server operator's token, not a member's.
 *
 * `permission-matrix.test.ts` walks every operation of the OpenAPI document against this table
 * for each role and a stranger; an operation missing here fails that test.
 */
import type { Capability } from '@heizplan/contracts/permissions';

export type Access = Capability | 'signed-in' | 'public' | 'operator';

/** Operation (`METHOD /api/path` as in the OpenAPI document) → who may call it. */
export const PERMISSION_MATRIX: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/health/ready': 'public',
  'GET /api/public/auth-config': 'public',
  'GET /api/public/app-config': 'public',
  'POST /api/public/client-errors': 'public',
  'POST /api/billing/stripe/webhook': 'public',
  'POST /api/operator/billing/{company}/mark-paid': 'operator',
  'GET /api/public/heating-view/{token}': 'public',
  // The demo company's meeting-room calendar (generated, no data of any company).
  'GET /api/public/demo/bookings.ics': 'public',
  // The demo's weather stand-in: a recorded DWD winter replayed (no data of any company).
  'GET /api/public/demo/weather': 'public',
  'POST /api/public/heating-view/{token}/setpoint': 'public',
  // An occupant's "Zu warm" / "Zu kalt" (decision 0070).
  'POST /api/public/heating-view/{token}/feedback': 'public',

  'GET /api/me/': 'signed-in',
  'PUT /api/me/': 'signed-in',
  'POST /api/me/language': 'signed-in',
  'PUT /api/me/password': 'signed-in',
  'DELETE /api/me/request_deletion': 'signed-in',
  'POST /api/me/request-verification': 'signed-in',
  'DELETE /api/me/notices/{id}': 'signed-in',
  'GET /api/me/second-factor': 'signed-in',
  'POST /api/me/second-factor/totp': 'signed-in',
  'POST /api/me/second-factor/totp/confirm': 'signed-in',
  'DELETE /api/me/second-factor/totp': 'signed-in',
  // Passkeys (decision 0074).
  'GET /api/me/passkeys': 'signed-in',
  'POST /api/me/passkeys': 'signed-in',
  'POST /api/me/passkeys/registration-options': 'signed-in',
  'GET /api/me/passkeys/{passkeyId}': 'signed-in',
  'PATCH /api/me/passkeys/{passkeyId}': 'signed-in',
  'DELETE /api/me/passkeys/{passkeyId}': 'signed-in',
  // Sign-in sessions (decision 0074).
  'GET /api/me/sessions': 'signed-in',
  'DELETE /api/me/sessions': 'signed-in',
  'DELETE /api/me/sessions/{sessionId}': 'signed-in',
  'GET /api/companies/': 'signed-in',
  'POST /api/companies/setup': 'signed-in',
  'GET /api/licenses/current': 'signed-in',
  'POST /api/invite/setup/{invite_code}': 'signed-in',
  'GET /api/holiday-regions': 'signed-in',

  'GET /api/companies/{id}/': 'read',
  'PATCH /api/companies/{id}/': 'manage',
  'GET /api/licenses/{id}/': 'read',
  'POST /api/licenses/{id}/': 'manage',

  // The team. Every member may also read and remove (leave) their own membership.
  'GET /api/companies/{id}/members/': 'manage',
  // API tokens for integrators (decision 0058).
  'GET /api/companies/{companyId}/api-tokens': 'manage',
  'POST /api/companies/{companyId}/api-tokens': 'manage',
  'POST /api/companies/{companyId}/api-tokens/{tokenId}/revoke': 'manage',
  // The audit log (decision 0059).
  'GET /api/companies/{companyId}/audit-log': 'manage',
  'GET /api/companies/{companyId}/audit-log/export': 'manage',
  // Energy and comfort reports, the export API and a building's meter readings (decision 0061).
  'GET /api/companies/{companyId}/reports': 'read',
  'GET /api/companies/{companyId}/reports/export': 'read',
  'GET /api/companies/{companyId}/reports/rollups': 'read',
  'GET /api/companies/{companyId}/reports/telemetry': 'read',
  'GET /api/companies/{companyId}/reports/subscription': 'read',
  'PUT /api/companies/{companyId}/reports/subscription': 'read',
  'GET /api/companies/{companyId}/buildings/{buildingId}/report-data': 'read',
  'PUT /api/companies/{companyId}/buildings/{buildingId}/report-settings': 'operate',
  'PUT /api/companies/{companyId}/buildings/{buildingId}/meter-readings': 'operate',
  'POST /api/companies/{companyId}/buildings/{buildingId}/meter-readings/import': 'operate',
  'DELETE /api/companies/{companyId}/buildings/{buildingId}/meter-readings/{month}/{carrier}': 'operate',
  'POST /api/companies/{id}/members/{email}': 'manage',
  'PATCH /api/companies/{id}/members/{sub}': 'manage',
  'DELETE /api/companies/{id}/members/{sub}': 'manage',
  // An admin's reset of a member's second factors (decision 0078); never one's own (409).
  'POST /api/companies/{id}/members/{sub}/second-factor/reset': 'manage',
  'GET /api/companies/{id}/user/{sub}': 'manage',
  'GET /api/invite/': 'manage',
  'POST /api/invite/': 'manage',
  'DELETE /api/invite/{id}': 'manage',

  'GET /api/companies/{companyId}/units': 'read',
  'POST /api/companies/{companyId}/units': 'operate',
  'GET /api/companies/{companyId}/units/export': 'read',
  'GET /api/companies/{companyId}/units/{unitId}': 'read',
  'PATCH /api/companies/{companyId}/units/{unitId}': 'operate',
  'DELETE /api/companies/{companyId}/units/{unitId}': 'operate',
  'POST /api/companies/{companyId}/units/bulk': 'operate',
  // The rooms list's bulk edit: whoever may change and delete units one by one.
  'POST /api/companies/{companyId}/units/bulk-update': 'operate',
  'POST /api/companies/{companyId}/units/bulk-delete': 'operate',
  'POST /api/companies/{companyId}/units/bulk-qr-code': 'operate',
  'POST /api/companies/{companyId}/units/{unitId}/setpoint': 'operate',
  'POST /api/companies/{companyId}/units/{unitId}/pause': 'operate',
  'POST /api/companies/{companyId}/units/{unitId}/resume': 'operate',
  'GET /api/companies/{companyId}/units/{unitId}/log': 'read',
  'GET /api/companies/{companyId}/heating-log/export': 'read',
  'GET /api/companies/{companyId}/units/{unitId}/series': 'read',
  'GET /api/companies/{companyId}/units/{unitId}/warm-up': 'read',
  // The occupants' feedback of a room (decision 0070): whoever may read the room.
  'GET /api/companies/{companyId}/units/{unitId}/feedback': 'read',
  // Previews compute a week from stored or draft plans and change nothing.
  'GET /api/companies/{companyId}/units/{unitId}/preview': 'read',
  'POST /api/companies/{companyId}/units/{unitId}/preview': 'read',

  'GET /api/companies/{companyId}/groups': 'read',
  'POST /api/companies/{companyId}/groups': 'operate',
  'GET /api/companies/{companyId}/groups/{groupId}': 'read',
  'PATCH /api/companies/{companyId}/groups/{groupId}': 'operate',
  'DELETE /api/companies/{companyId}/groups/{groupId}': 'operate',
  'POST /api/companies/{companyId}/groups/{groupId}/units': 'operate',
  'DELETE /api/companies/{companyId}/groups/{groupId}/units/{unitId}': 'operate',

  'GET /api/companies/{companyId}/units/{unitId}/plans': 'read',
  'POST /api/companies/{companyId}/units/{unitId}/plans': 'operate',
  'GET /api/companies/{companyId}/groups/{groupId}/plans': 'read',
  'POST /api/companies/{companyId}/groups/{groupId}/plans': 'operate',
  'GET /api/companies/{companyId}/plans/{planId}': 'read',
  'PATCH /api/companies/{companyId}/plans/{planId}': 'operate',
  'DELETE /api/companies/{companyId}/plans/{planId}': 'operate',
  'GET /api/companies/{companyId}/plans/export': 'read',

  'GET /api/companies/{companyId}/events': 'read',
  'POST /api/companies/{companyId}/events': 'operate',
  'GET /api/companies/{companyId}/events/{eventId}': 'read',
  'PATCH /api/companies/{companyId}/events/{eventId}': 'operate',
  'DELETE /api/companies/{companyId}/events/{eventId}': 'operate',
  'POST /api/companies/{companyId}/events/{eventId}/end': 'operate',

  'GET /api/companies/{companyId}/closures': 'read',
  'POST /api/companies/{companyId}/closures': 'operate',
  'GET /api/companies/{companyId}/closures/{closureId}': 'read',
  'PATCH /api/companies/{companyId}/closures/{closureId}': 'operate',
  'DELETE /api/companies/{companyId}/closures/{closureId}': 'operate',

  'GET /api/companies/{companyId}/buildings': 'read',
  'POST /api/companies/{companyId}/buildings': 'operate',
  'GET /api/companies/{companyId}/buildings/{buildingId}': 'read',
  'PATCH /api/companies/{companyId}/buildings/{buildingId}': 'operate',
  'DELETE /api/companies/{companyId}/buildings/{buildingId}': 'operate',
  'GET /api/companies/{companyId}/buildings/{buildingId}/holidays': 'read',
  'GET /api/companies/{companyId}/buildings/{buildingId}/days': 'read',
  'POST /api/companies/{companyId}/buildings/{buildingId}/days': 'operate',
  'POST /api/companies/{companyId}/buildings/{buildingId}/days/import': 'operate',
  'DELETE /api/companies/{companyId}/buildings/{buildingId}/days/{dayId}': 'operate',

  'GET /api/companies/{companyId}/booking-feeds': 'read',
  'POST /api/companies/{companyId}/booking-feeds': 'operate',
  'GET /api/companies/{companyId}/booking-feeds/{feedId}': 'read',
  'PATCH /api/companies/{companyId}/booking-feeds/{feedId}': 'operate',
  'DELETE /api/companies/{companyId}/booking-feeds/{feedId}': 'operate',
  // Fetching changes the feed's status and bookings (and so the heating).
  'POST /api/companies/{companyId}/booking-feeds/{feedId}/sync': 'operate',
  'GET /api/companies/{companyId}/booking-feeds/{feedId}/bookings': 'read',

  // The events calendar's background layers: closures, holidays, own days, bookings.
  'GET /api/companies/{companyId}/calendar-layers': 'read',

  'GET /api/companies/{companyId}/devices': 'read',
  'POST /api/companies/{companyId}/devices': 'operate',
  'GET /api/companies/{companyId}/devices/{deviceId}': 'read',
  'PATCH /api/companies/{companyId}/devices/{deviceId}': 'operate',
  'DELETE /api/companies/{companyId}/devices/{deviceId}': 'operate',
  'GET /api/companies/{companyId}/devices/export': 'read',
  'GET /api/companies/{companyId}/devices/by-eui/{devEui}': 'read',

  // Bulk import of units and devices (decision 0063): whoever may create them. The mapping and
  // the preview serve only the import, and a file's rows are the company's data.
  'GET /api/companies/{companyId}/imports/{kind}/mapping': 'operate',
  'PUT /api/companies/{companyId}/imports/{kind}/mapping': 'operate',
  'POST /api/companies/{companyId}/imports/preview': 'operate',
  'POST /api/companies/{companyId}/imports/{kind}/dry-run': 'operate',
  'POST /api/companies/{companyId}/imports/{kind}/commit': 'operate',
  // Device profiles: desired configuration per model and place, one-off commands (decision 0062).
  'POST /api/companies/{companyId}/devices/recalibrate': 'operate',
  'GET /api/companies/{companyId}/device-profiles': 'read',
  'POST /api/companies/{companyId}/device-profiles': 'operate',
  'GET /api/companies/{companyId}/device-profiles/{profileId}': 'read',
  'PATCH /api/companies/{companyId}/device-profiles/{profileId}': 'operate',
  'DELETE /api/companies/{companyId}/device-profiles/{profileId}': 'operate',

  'GET /api/companies/{companyId}/gateways': 'read',
  'POST /api/companies/{companyId}/gateways': 'operate',
  'GET /api/companies/{companyId}/gateways/{gatewayId}': 'read',
  'PATCH /api/companies/{companyId}/gateways/{gatewayId}': 'operate',
  'DELETE /api/companies/{companyId}/gateways/{gatewayId}': 'operate',

  // A heating circuit drives the building's heat generator: set up by admins, read by everyone.
  'GET /api/companies/{companyId}/heating-circuits': 'read',
  'POST /api/companies/{companyId}/heating-circuits': 'manage',
  'GET /api/companies/{companyId}/heating-circuits/{circuitId}': 'read',
  'PATCH /api/companies/{companyId}/heating-circuits/{circuitId}': 'manage',
  'DELETE /api/companies/{companyId}/heating-circuits/{circuitId}': 'manage',
  'GET /api/companies/{companyId}/heating-circuits/{circuitId}/readings': 'read',
  'GET /api/companies/{companyId}/heating-circuits/{circuitId}/writes': 'read',

  // The getting-started checklist leads to screens where the heating is set up: for those who do.
  'GET /api/companies/{companyId}/getting-started': 'operate',

  // Every member sees whether a subscription is active (the navigation says so) and the prices.
  'GET /api/companies/{companyId}/billing': 'read',
  'POST /api/companies/{companyId}/billing/quote': 'read',
  'POST /api/companies/{companyId}/billing/checkout': 'manage',
  'GET /api/companies/{companyId}/billing/checkout/{checkoutId}': 'manage',
  'GET /api/companies/{companyId}/billing/address': 'manage',
  'PUT /api/companies/{companyId}/billing/address': 'manage',
  'PATCH /api/companies/{companyId}/billing/subscription': 'manage',
  'GET /api/companies/{companyId}/billing/invoices': 'manage',
  'GET /api/companies/{companyId}/billing/invoices/{invoiceId}/pdf': 'manage',
  'POST /api/companies/{companyId}/billing/portal': 'manage',

  // Alerts: everybody reads and chooses their own mails; acknowledging and muting is operating;
  // the company's conditions and webhooks are configuration.
  'GET /api/companies/{companyId}/alerts': 'read',
  'GET /api/companies/{companyId}/alerts/summary': 'read',
  'POST /api/companies/{companyId}/alerts/{alertId}/acknowledge': 'operate',
  'POST /api/companies/{companyId}/alerts/{alertId}/mute': 'operate',
  'GET /api/companies/{companyId}/alert-settings': 'read',
  'PATCH /api/companies/{companyId}/alert-settings': 'manage',
  'GET /api/companies/{companyId}/alert-preferences': 'read',
  'PATCH /api/companies/{companyId}/alert-preferences': 'read',
  'GET /api/companies/{companyId}/webhooks': 'manage',
  'POST /api/companies/{companyId}/webhooks': 'manage',
  'GET /api/companies/{companyId}/webhooks/{webhookId}': 'manage',
  'PATCH /api/companies/{companyId}/webhooks/{webhookId}': 'manage',
  'DELETE /api/companies/{companyId}/webhooks/{webhookId}': 'manage',
  'GET /api/companies/{companyId}/webhooks/{webhookId}/deliveries': 'manage',

  // A QR code's token lets anyone change the room's setpoint, so even reading it is operating.
  'GET /api/companies/{companyId}/qr-codes': 'operate',
  'GET /api/companies/{companyId}/units/{unitId}/qr-code': 'operate',
  'POST /api/companies/{companyId}/units/{unitId}/qr-code': 'operate',
  'DELETE /api/companies/{companyId}/units/{unitId}/qr-code': 'operate',
  'POST /api/companies/{companyId}/units/{unitId}/qr-code/regenerate': 'operate',
};
