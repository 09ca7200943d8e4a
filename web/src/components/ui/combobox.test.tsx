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

  it('opens its list above the input, no taller than the room there, at the bottom of a scrolling frame', async () => {
    // A dialog's body (a scrolling frame) 0–300 px with the combobox at its bottom edge.
    const rects = new Map<string, Partial<DOMRect>>([
      ['frame', { top: 0, bottom: 300, height: 300 }],
      ['anchor', { top: 200, bottom: 240, height: 40 }],
    ]);
    const spy = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: Element,
    ) {
      // The combobox measures the wrapper around its input against the frame.
      const anchor = this.classList.contains('relative') && this.querySelector('[role=combobox]');
      const key = this.getAttribute('data-rect') ?? (anchor ? 'anchor' : '');
      return {
        top: 0,
        bottom: 0,
        height: 0,
        left: 0,
        right: 0,
        width: 0,
        x: 0,
        y: 0,
        ...rects.get(key),
      } as DOMRect;
    });
    render(
      <div data-rect="frame" style={{ overflowY: 'auto' }}>
        <Single />
      </div>,
    );
    await userEvent.click(input());
    const list = screen.getByRole('listbox');
    expect(list).toHaveAttribute('data-placement', 'above');
    expect(list.style.maxHeight).toBe('196px');
    spy.mockRestore();
  });

  it('offers to create what was typed when no option has that name', async () => {
    const onCreate = vi.fn();
    render(
      <Combobox
        label="Gruppe"
        options={options}
        value={null}
        onChange={() => {}}
        create={{ label: (text) => `Gruppe „${text}“ anlegen`, onCreate, testid: 'opt-new' }}
      />,
    );
    await userEvent.type(input(), 'Küche');
    expect(screen.queryByTestId('opt-new')).toBeNull();
    await userEvent.clear(input());
    await userEvent.type(input(), ' Etage 3 ');
    expect(screen.getByTestId('opt-new')).toHaveTextContent('Gruppe „Etage 3“ anlegen');
    await userEvent.keyboard('{Enter}');
    expect(onCreate).toHaveBeenCalledWith('Etage 3');
  });
});
