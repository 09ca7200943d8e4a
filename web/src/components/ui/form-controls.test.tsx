import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button.tsx';
import { TextInput } from './field.tsx';
import { SearchInput } from './search-input.tsx';
import { Select } from './select.tsx';
import { Spinner } from './spinner.tsx';

describe('Spinner', () => {
  it('is rendered while loading and announced as a status', () => {
    render(<Spinner loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Wird geladen …');
  });

  it('is not rendered when not loading', () => {
    render(<Spinner loading={false} />);
    expect(screen.queryByTestId('spinner')).toBeNull();
  });
});

describe('Button', () => {
  it('does not submit a form unless asked to, and is disabled with a spinner while loading', async () => {
    const onSubmit = vi.fn((event: SubmitEvent) => event.preventDefault());
    const onClick = vi.fn();
    const { rerender } = render(
      <form onSubmit={(e) => onSubmit(e.nativeEvent as SubmitEvent)}>
        <Button testid="save" onClick={onClick}>
          Speichern
        </Button>
      </form>,
    );
    await userEvent.click(screen.getByTestId('save'));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
    rerender(
      <Button testid="save" loading onClick={onClick}>
        Speichern
      </Button>,
    );
    expect(screen.getByTestId('save')).toBeDisabled();
    expect(screen.getByTestId('save-spinner')).toBeInTheDocument();
  });
});

describe('TextInput', () => {
  it('labels the input and shows the error under it, linked for screen readers', () => {
    render(<TextInput label="Firmenname" error="Name fehlt" testid="company-name" />);
    const input = screen.getByLabelText('Firmenname');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Name fehlt');
    expect(screen.getByTestId('company-name-field-error')).toHaveTextContent('Name fehlt');
  });

  it('has no error message or invalid flag when there is no error', () => {
    render(<TextInput label="Firmenname" testid="company-name" />);
    expect(screen.getByLabelText('Firmenname')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByTestId('company-name-field-error')).toBeNull();
  });
});

describe('SearchInput', () => {
  it("has the placeholder 'Suchen...' by default and reports typed text", async () => {
    const onChange = vi.fn();
    function Controlled() {
      const [value, setValue] = useState('');
      return (
        <SearchInput
          value={value}
          onChange={(v) => {
            setValue(v);
            onChange(v);
          }}
        />
      );
    }
    render(<Controlled />);
    const input = screen.getByRole('searchbox', { name: 'Suche' });
    expect(input).toHaveAttribute('placeholder', 'Suchen...');
    await userEvent.type(input, 'Büro');
    expect(onChange).toHaveBeenLastCalledWith('Büro');
  });

  it('takes another placeholder when given', () => {
    render(<SearchInput value="" onChange={() => {}} placeholder="Raum suchen" />);
    expect(screen.getByRole('searchbox')).toHaveAttribute('placeholder', 'Raum suchen');
  });
});

describe('Select', () => {
  const options = [
    { id: 'monthly', value: 'Monatlich', testid: 'interval-monthly' },
    { id: 'yearly', value: 'Jährlich', testid: 'interval-yearly' },
  ];

  it('shows each option value and reports the chosen id', async () => {
    const onChange = vi.fn();
    render(<Select aria-label="Intervall" options={options} value="monthly" onChange={onChange} />);
    expect(screen.getByTestId('interval-yearly')).toHaveTextContent('Jährlich');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Intervall' }), 'Jährlich');
    expect(onChange).toHaveBeenCalledWith('yearly');
  });
});
