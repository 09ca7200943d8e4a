/** The roles of spec §6 as select options (labels in `common:roles`), in the spec's order: ems, heating, admin. */
import { type Role, RoleSchema } from '@heizplan/contracts/account';
import type { TFunction } from 'i18next';
import type { SelectOption } from '../components/ui/select.tsx';

export function roleOptions(t: TFunction, testid: string): SelectOption[] {
  return RoleSchema.options.toSorted(bySpecOrder).map((role) => ({
    id: role,
    value: t(`common:roles.${role}`),
    testid: `${testid}-${role}`,
  }));
}

const SPEC_ORDER: Role[] = ['ems', 'heating', 'admin'];
function bySpecOrder(a: Role, b: Role) {
  return SPEC_ORDER.indexOf(a) - SPEC_ORDER.indexOf(b);
}

export const isRole = (value: string): value is Role => RoleSchema.safeParse(value).success;
