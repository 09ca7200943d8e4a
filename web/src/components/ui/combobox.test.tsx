import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Combobox, type ComboboxOption } from './combobox.tsx';

const options: ComboboxOption[] = [
  { id: 'living', item: 'Wohnzimmer', testid: 'opt-living' },
  { id: 'north', item: 'Büro Nord', testid: 'opt-north' },
  { id: 'south', item: 'Büro Süd', testid: 'opt-south' },
  { id: 'kitchen', item: 'Küche', testid: 'opt-kitchen' },
];

function Single({ onChange = () => {} }: { onChange?: (id: string | null) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <Combobox
      label="Raum"
      options={options}
      value={value}
      onChange={(id) => {
        setValue(id);
        onChange(id);
      }}
    />
  );
}

function Multi() {
  const [value, setValue] = useState<string[]>([]);
  return <Combobox multiple label="Räume" options={options} value={value} onChange={setValue} />;
}

const input = () => screen.getByRole('combobox');
const shown = () =>
  within(screen.getByRole('listbox', { hidden: true }))
    .queryAllByRole('option', { hidden: true })
    .map((o) => o.textContent);

describe('Combobox', () => {
  it('filters ignoring case and whitespace', async () => {
    render(<Single />);
    await userEvent.type(input(), '  bÜRO nord');
    expect(shown()).toEqual(['Büro Nord']);
    await userEvent.clear(input());
    await userEvent.type(input(), 'BÜRO');
    expect(shown()).toEqual(['Büro Nord', 'Büro Süd']);
    await userEvent.clear(input());
    await userEvent.type(input(), 'wohn zimmer');
    expect(shown()).toEqual(['Wohnzimmer']);
  });

  it("shows 'Keine Übereinstimmungen...' when nothing matches", async () => {
    render(<Single />);
    await userEvent.type(input(), 'Keller');
    expect(screen.getByTestId('combobox-no-match')).toHaveTextContent('Keine Übereinstimmungen...');
    expect(screen.getByRole('listbox', { hidden: true })).not.toBeVisible();
  });

  it('is operable by keyboard: ArrowDown opens and moves, Enter picks, Escape closes', async () => {
    const onChange = vi.fn();
    render(<Single onChange={onChange} />);
    await userEvent.tab();
    expect(input()).toHaveFocus();
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    await userEvent.keyboard('{ArrowDown}');
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    expect(input()).toHaveAttribute('aria-activedescendant', screen.getByTestId('opt-living').id);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}{ArrowDown}');
    expect(input()).toHaveAttribute('aria-activedescendant', screen.getByTestId('opt-south').id);
    await userEvent.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith('south');
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(input()).toHaveValue('Büro Süd');
    await userEvent.keyboard('{ArrowUp}');
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(input()).toHaveValue('Büro Süd');
  });

  it('wraps around at the ends of the list', async () => {
    render(<Single />);
    await userEvent.click(input());
    await userEvent.keyboard('{ArrowUp}');
    expect(input()).toHaveAttribute('aria-activedescendant', screen.getByTestId('opt-kitchen').id);
  });

  it('picks an option by click and marks it selected', async () => {
    const onChange = vi.fn();
    render(<Single onChange={onChange} />);
    await userEvent.click(input());
    await userEvent.click(screen.getByTestId('opt-kitchen'));
    expect(onChange).toHaveBeenCalledWith('kitchen');
    await userEvent.click(input());
    expect(screen.getByTestId('opt-kitchen')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('opt-living')).toHaveAttribute('aria-selected', 'false');
  });

  it('selects several options in multi mode, toggles and removes them', async () => {
    render(<Multi />);
    await userEvent.click(input());
    expect(screen.getByRole('listbox')).toHaveAttribute('aria-multiselectable', 'true');
    await userEvent.click(screen.getByTestId('opt-living'));
    await userEvent.type(input(), 'küche{Enter}');
    expect(screen.getByTestId('combobox-chip-living')).toBeInTheDocument();
    expect(screen.getByTestId('combobox-chip-kitchen')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByTestId('opt-living'));
    expect(screen.queryByTestId('combobox-chip-living')).toBeNull();
    await userEvent.keyboard('{Backspace}');
    expect(screen.queryByTestId('combobox-chip-kitchen')).toBeNull();
  });

  it('removes a choice with its chip button', async () => {
    render(<Multi />);
    await userEvent.click(input());
    await userEvent.click(screen.getByTestId('opt-north'));
    await userEvent.click(screen.getByRole('button', { name: 'Büro Nord entfernen' }));
    expect(screen.queryByTestId('combobox-chip-north')).toBeNull();
  });
});
