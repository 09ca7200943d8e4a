/**
 * Made-up rooms for the catalogue's tables and comboboxes, named in the current language.
 * Deterministic (no randomness) so screenshots compare across runs.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export interface DemoRoom {
  id: string;
  name: string;
  group: string;
  setpoint: number;
  temperature: number;
  createdBy: string;
}

export const DEMO_ROOM_COUNT = 42;

export function useDemoRooms(): DemoRoom[] {
  const { t } = useTranslation('dev-ui');
  return useMemo(() => {
    const groups = t('table.groups', { returnObjects: true }) as string[];
    const people = t('table.people', { returnObjects: true }) as string[];
    return Array.from({ length: DEMO_ROOM_COUNT }, (_, i) => ({
      id: `r${i + 1}`,
      name: t('table.room', { n: i + 1 }),
      group: groups[i % groups.length] ?? '',
      setpoint: 17 + ((i * 3) % 7),
      temperature: Math.round((15.5 + ((i * 7) % 11) * 0.6) * 10) / 10,
      createdBy: people[i % people.length] ?? '',
    }));
  }, [t]);
}
