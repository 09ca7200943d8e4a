import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProgressSteps, type StepItem } from './progress-steps.tsx';

const items: StepItem[] = [
  { title: 'Sprache', testid: 'step-language' },
  { title: 'Firma', description: 'Anlegen oder beitreten', testid: 'step-company' },
  { title: 'Bedingungen', testid: 'step-terms' },
];

describe('ProgressSteps', () => {
  it('marks earlier steps done, the current one in progress and later ones pending', () => {
    render(<ProgressSteps items={items} current={1} />);
    expect(screen.getByTestId('step-language')).toHaveAttribute('data-state', 'done');
    expect(screen.getByTestId('step-company')).toHaveAttribute('data-state', 'current');
    expect(screen.getByTestId('step-company')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByTestId('step-terms')).toHaveAttribute('data-state', 'pending');
    expect(screen.getByTestId('step-language')).toHaveTextContent('erledigt');
    expect(screen.getByTestId('step-terms')).toHaveTextContent('ausstehend');
  });

  it('calls back with the index when an earlier step is clicked and back navigation is allowed by default', async () => {
    const onStepClick = vi.fn();
    render(<ProgressSteps items={items} current={2} onStepClick={onStepClick} />);
    await userEvent.click(screen.getByTestId('step-company-button'));
    expect(onStepClick).toHaveBeenCalledWith(1);
  });

  it('does not go back when back navigation is not allowed', async () => {
    const onStepClick = vi.fn();
    render(<ProgressSteps items={items} current={2} onStepClick={onStepClick} allowBack={false} />);
    expect(screen.queryByTestId('step-company-button')).toBeNull();
    await userEvent.click(screen.getByText('Firma'));
    expect(onStepClick).not.toHaveBeenCalled();
  });

  it('never calls back for the current or a later step', async () => {
    const onStepClick = vi.fn();
    render(<ProgressSteps items={items} current={1} onStepClick={onStepClick} />);
    await userEvent.click(screen.getByText('Firma'));
    await userEvent.click(screen.getByText('Bedingungen'));
    expect(onStepClick).not.toHaveBeenCalled();
    expect(screen.queryAllByRole('button')).toHaveLength(1);
  });
});
