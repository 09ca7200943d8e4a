/**
 * The form layer: messages only after a field was left or the form submitted, every zod issue
 * in the user's language naming its limit (never a contract's English text), the schema's
 * limits as input attributes, and a problem+json answer's field errors under their fields.
 */
import { UpdateMeBodySchema } from '@heizplan/contracts/account';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { setLanguage } from '../../app/i18n.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useProblemMessage } from '../../lib/problem-message.ts';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  inputLimits,
  numberValue,
  useContractForm,
} from './form.tsx';

const RoomSchema = z.object({
  name: z.string().trim().min(1).max(120),
  temperature: z.number().min(12).max(28).multipleOf(0.5),
  switchPoints: z.array(z.object({ hour: z.number().int().min(0).max(23) })),
});

let exposed: {
  form: ReturnType<typeof useContractForm<typeof RoomSchema>>;
  problems: ReturnType<typeof useProblemMessage>;
} | null = null;

function RoomForm({ onSubmit = () => {} }: { onSubmit?: (values: z.output<typeof RoomSchema>) => void }) {
  const form = useContractForm(RoomSchema, {
    defaultValues: { name: '', temperature: 21, switchPoints: [{ hour: 6 }] },
    units: { temperature: '°C' },
  });
  exposed = { form, problems: useProblemMessage() };
  return (
    <Form form={form} onSubmit={onSubmit} testid="room-form">
      <FormTextInput name="name" label="Name" testid="room-name" />
      <FormTextInput
        name="temperature"
        label="Temperatur"
        type="number"
        rules={{ setValueAs: numberValue }}
        testid="room-temperature"
      />
      <FormError testid="room-error" />
      <button type="submit">Speichern</button>
    </Form>
  );
}

function ProfileForm() {
  const form = useContractForm(UpdateMeBodySchema, { defaultValues: { name: '', email: '' } });
  return (
    <Form form={form} onSubmit={() => {}}>
      <FormTextInput name="name" label="Name" testid="profile-name" />
      <FormTextInput name="email" label="E-Mail" type="email" testid="profile-email" />
      <button type="submit">Speichern</button>
    </Form>
  );
}

describe('form layer', () => {
  beforeEach(async () => {
    exposed = null;
    await setLanguage('de');
  });

  it('shows nothing before a field is left, then its limit in German, wired to the input', async () => {
    render(<RoomForm />);
    const name = screen.getByTestId('room-name');
    await userEvent.type(name, 'x'.repeat(3));
    expect(screen.queryByTestId('room-name-field-error')).toBeNull();
    await userEvent.clear(name);
    await userEvent.tab();
    const error = screen.getByTestId('room-name-field-error');
    expect(error).toHaveTextContent('Bitte füllen Sie dieses Feld aus.');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name.getAttribute('aria-describedby')).toContain(error.id);

    const temperature = screen.getByTestId('room-temperature');
    await userEvent.clear(temperature);
    await userEvent.type(temperature, '30');
    await userEvent.tab();
    expect(await screen.findByTestId('room-temperature-field-error')).toHaveTextContent('Höchstens 28 °C');
    await userEvent.clear(temperature);
    await userEvent.type(temperature, '10');
    expect(await screen.findByTestId('room-temperature-field-error')).toHaveTextContent('Mindestens 12 °C');
    await userEvent.clear(temperature);
    expect(await screen.findByTestId('room-temperature-field-error')).toHaveTextContent(
      'Bitte geben Sie eine Zahl ein.',
    );
    await userEvent.type(temperature, '21.3');
    expect(await screen.findByTestId('room-temperature-field-error')).toHaveTextContent(
      'In Schritten von 0,5 °C',
    );
  });

  it('words a contract’s own English messages in the user’s language', async () => {
    render(<ProfileForm />);
    await userEvent.type(screen.getByTestId('profile-email'), 'keine-adresse');
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByTestId('profile-name-field-error')).toHaveTextContent(
      'Bitte füllen Sie dieses Feld aus.',
    );
    expect(await screen.findByTestId('profile-email-field-error')).toHaveTextContent(
      'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
    );
    expect(document.body).not.toHaveTextContent('Name must not be empty.');
    expect(document.body).not.toHaveTextContent('Email must be a valid email address.');

    await setLanguage('en');
    await userEvent.type(screen.getByTestId('profile-name'), 'x');
    await userEvent.clear(screen.getByTestId('profile-name'));
    expect(await screen.findByTestId('profile-name-field-error')).toHaveTextContent(
      'Please fill in this field.',
    );
  });

  it('puts the schema’s limits on the inputs', () => {
    render(<RoomForm />);
    expect(screen.getByTestId('room-name')).toHaveAttribute('maxlength', '120');
    const temperature = screen.getByTestId('room-temperature');
    expect(temperature).toHaveAttribute('min', '12');
    expect(temperature).toHaveAttribute('max', '28');
    expect(temperature).toHaveAttribute('step', '0.5');
    expect(inputLimits(RoomSchema, 'switchPoints.0.hour')).toEqual({ min: 0, max: 23, step: 1 });
    expect(inputLimits(RoomSchema.transform((v) => v).pipe(z.any()), 'name')).toEqual({ maxLength: 120 });
  });

  it('sends the schema’s output once every field is valid', async () => {
    const onSubmit = vi.fn();
    render(<RoomForm onSubmit={onSubmit} />);
    await userEvent.type(screen.getByTestId('room-name'), '  Aula  ');
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      name: 'Aula',
      temperature: 21,
      switchPoints: [{ hour: 6 }],
    });
  });

  it('puts a problem’s field errors under their fields, translated, and the rest on the form', async () => {
    render(<RoomForm />);
    const problem = new ApiError(400, 'Bad Request', 'Invalid', [
      { field: 'body.name', message: 'x', code: 'unit_name_taken', params: { name: 'Aula' } },
      { field: 'switchPoints.0.hour', message: 'Invalid time!', code: 'plan_invalid_time' },
      { field: 'body.unknown', message: 'Server says no' },
    ]);
    let placed = false;
    act(() => {
      if (exposed) placed = applyServerErrors(exposed.form, problem, exposed.problems);
    });
    expect(placed).toBe(true);
    expect(await screen.findByTestId('room-name-field-error')).toHaveTextContent('Aula');
    expect(await screen.findByTestId('room-name-field-error')).not.toHaveTextContent('x');
    expect(exposed?.form.getFieldState('switchPoints.0.hour').error?.message).toBe('Ungültige Zeit!');
    expect(screen.getByTestId('room-error')).toHaveTextContent('Dieser Wert wurde nicht angenommen.');
    expect(document.body).not.toHaveTextContent('Server says no');

    act(() => {
      exposed?.form.clearErrors();
      if (exposed) applyServerErrors(exposed.form, new ApiError(429, 'Too Many Requests'), exposed.problems);
    });
    expect(screen.getByTestId('room-error')).toHaveTextContent('Zu viele Anfragen.');
  });
});
