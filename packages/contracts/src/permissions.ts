/**
 * What each role of a company may do (docs/architecture.md, decision 0022). The server
 * enforces it in its services (403 for a member without the right); the web app hides the
 * controls a role may not use. Both read this one table.
 *
 * - `read`: see units, groups, plans, events, devices, gateways, graphs, logs and previews.
 * - `operate`: run the heating — setpoints, pause/resume, units, groups, plans, events,
 *   devices, gateways, /assign and QR codes.
 * - `manage`: the team (invites, codes, roles, removal), company settings, billing and
 *   accepting the agreements.
 */
import type { Role } from './account.ts';

export const CAPABILITIES = ['read', 'operate', 'manage'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** `admin` does everything, `heating` runs the heating, `ems` (energy manager/EMS) only reads. */
export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  admin: ['read', 'operate', 'manage'],
  heating: ['read', 'operate'],
  ems: ['read'],
};

/** True when a member with `role` has `capability`; false for no role (not a member). */
export function can(role: Role | null | undefined, capability: Capability): boolean {
  return role ? ROLE_CAPABILITIES[role].includes(capability) : false;
}
