import { describe, expect, it } from 'vitest';
import { type ValueFormat, valueText } from './audit-words.ts';

const format: ValueFormat = {
  celsius: (v) => `${String(v).replace('.', ',')} °C`,
  plain: (v) => String(v).replace('.', ','),
  dateTime: (iso) => `local(${iso})`,
  yes: 'Ja',
  no: 'Nein',
  empty: 'leer',
  quote: (text) => `„${text}“`,
  items: (count) => `${count} Einträge`,
};

describe('valueText', () => {
  it('reads temperatures as °C, other numbers plain, yes and no, nothing as empty', () => {
    expect(valueText('wallControlMax', 23.5, format)).toBe('23,5 °C');
    expect(valueText('licences', 12, format)).toBe('12');
    expect(valueText('active', false, format)).toBe('Nein');
    expect(valueText('groupId', null, format)).toBe('leer');
  });

  it('shows instants in local time, text quoted, short lists by name and long ones by count', () => {
    expect(valueText('start', '2026-12-24T07:00:00.000Z', format)).toBe('local(2026-12-24T07:00:00.000Z)');
    expect(valueText('name', 'Klasse 5b', format)).toBe('„Klasse 5b“');
    expect(valueText('floors', ['EG', 'OG'], format)).toBe('„EG“, „OG“');
    expect(valueText('switchPoints', [{}, {}, {}, {}], format)).toBe('4 Einträge');
    expect(valueText('config', { a: 1, b: 2 }, format)).toBe('2 Einträge');
  });
});
