import type { Alert } from '@heizplan/contracts/alerts';

/** True while `alert` is muted at `now`: its `mutedUntil` lies after it. */
export const isMuted = (alert: Pick<Alert, 'mutedUntil'>, now: Date): boolean =>
  alert.mutedUntil !== null && Date.parse(alert.mutedUntil) > now.getTime();
