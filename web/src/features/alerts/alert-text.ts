/**
 * An alert in words: its kind, and a hint built from its measured details — for a
 * device fault the code's explanation and what to do, in German or English.
 */

import { FROST_CELSIUS } from '@heizplan/contracts/alert-defaults';
import type { Alert } from '@heizplan/contracts/alerts';
import { faultText } from '@heizplan/contracts/device-faults';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMonth } from '../../lib/format.ts';

export function useAlertText() {
  const { t, i18n } = useTranslation('alerts');
  const number = (value: unknown, digits = 1) =>
    typeof value === 'number'
      ? new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value)
      : '–';
  const celsius = (value: unknown) => `${number(value)} °C`;
  const time = (value: unknown) => (typeof value === 'string' ? formatDateTime(value, i18n.language) : '–');
  const title = (alert: Alert) => t(`kinds.${alert.kind}`);
  const hint = (alert: Alert): string => {
    const d = alert.details;
    switch (alert.kind) {
      case 'device_fault': {
        const fault = faultText(alert.code ?? '', i18n.language === 'en' ? 'en' : 'de');
        return `${fault.text} ${fault.action}`;
      }
      case 'low_battery': {
        const battery = `${number(d.battery)} ${d.unit === '%' ? '%' : 'V'}`;
        return typeof d.daysLeft === 'number'
          ? t('hints.lowBatteryDaysLeft', { battery, days: d.daysLeft })
          : t('hints.low_battery', { battery });
      }
      case 'open_window':
        return d.reported
          ? t('hints.open_window')
          : t('hints.openWindowInferred', { from: celsius(d.previousRoom), to: celsius(d.room) });
      case 'device_offline':
      case 'gateway_offline':
        return t(`hints.${alert.kind}`, { since: time(d.lastSeen ?? alert.openedAt) });
      case 'setpoint_not_delivered':
        return t('hints.setpoint_not_delivered', { setpoint: celsius(d.setpoint), since: time(d.queuedAt) });
      case 'setpoints_stalled':
        return t('hints.setpoints_stalled', {
          waiting: number(d.waiting, 0),
          setAside: number(d.setAside, 0),
          since: time(d.since ?? alert.openedAt),
        });
      case 'efficiency_target_missed':
        return t('hints.efficiency_target_missed', {
          name: alert.subjectName,
          month: typeof d.month === 'string' ? formatMonth(d.month, i18n.language) : '–',
          missed: (typeof d.missed === 'string' ? d.missed.split(',') : [])
            .map((kind) => t(`hints.targetMissed.${kind}`))
            .join(', '),
        });
      case 'frost':
        return t('hints.frost', {
          since: time(d.since ?? alert.openedAt),
          limit: celsius(FROST_CELSIUS),
          room: celsius(d.room),
          valve: typeof d.valve === 'number' ? `${number(d.valve, 0)} %` : '–',
        });
      case 'generator_write_failed':
        return t('hints.generator_write_failed', {
          name: alert.subjectName,
          since: time(d.since ?? alert.openedAt),
          at: time(d.at ?? alert.lastSeenAt),
        });
      case 'booking_feed_stale':
        return t('hints.booking_feed_stale', {
          name: alert.subjectName,
          since: time(d.since ?? alert.openedAt),
        });
      default:
        return t(`hints.${alert.kind}`, {
          since: time(d.since ?? alert.openedAt),
          room: celsius(d.room),
          setpoint: celsius(d.setpoint),
        });
    }
  };
  return { title, hint, time };
}
