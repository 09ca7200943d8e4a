import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tooltip, tooltipPlacement } from './tooltip.tsx';

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function renderTooltip(props: Partial<Parameters<typeof Tooltip>[0]> = {}) {
  render(
    <Tooltip content="Solltemperatur des Raums" {...props}>
      <button type="button">Info</button>
    </Tooltip>,
  );
  return screen.getByRole('button', { name: 'Info' });
}

describe('Tooltip', () => {
  it('appears only after the default 1000 ms of hover and hides on leave', () => {
    const trigger = renderTooltip();
    fireEvent.mouseEnter(trigger);
    advance(999);
    expect(screen.queryByRole('tooltip')).toBeNull();
    advance(1);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Solltemperatur des Raums');
    expect(trigger).toHaveAccessibleDescription('Solltemperatur des Raums');
    fireEvent.mouseLeave(trigger);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('does not appear when the pointer leaves before the delay', () => {
    const trigger = renderTooltip();
    fireEvent.mouseEnter(trigger);
    advance(500);
    fireEvent.mouseLeave(trigger);
    advance(1000);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('honours a custom delay', () => {
    const trigger = renderTooltip({ delay: 200 });
    fireEvent.mouseEnter(trigger);
    advance(200);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
  });

  it('appears after the delay on keyboard focus and hides on blur or Escape', () => {
    const trigger = renderTooltip();
    act(() => trigger.focus());
    advance(1000);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
    fireEvent.keyDown(trigger, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => trigger.blur());
    act(() => trigger.focus());
    advance(1000);
    act(() => trigger.blur());
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('is 120 px wide and placed on top by default', () => {
    const trigger = renderTooltip();
    vi.spyOn(screen.getByTestId('tooltip-trigger'), 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ x: 300, y: 200, width: 40, height: 20 }),
    );
    fireEvent.mouseEnter(trigger);
    advance(1000);
    const tip = screen.getByRole('tooltip');
    expect(tip.style.width).toBe('120px');
    expect(tip).toHaveAttribute('data-position', 'top');
    // Centred 8 px above the trigger.
    expect([tip.style.top, tip.style.left, tip.style.transform]).toEqual([
      '192px',
      '260px',
      'translateY(-100%)',
    ]);
  });

  // In the units table the tooltip inherited the cell's one-line rule and was clipped by the
  // table's scroll frame; drawn outside the table, its text wraps inside its own box.
  it('is drawn outside its container and wraps its text', () => {
    render(
      <div className="overflow-x-auto whitespace-nowrap" data-testid="cell">
        <Tooltip content="Die Raumtemperatur weicht um mehr als 2 °C von der Solltemperatur ab." width={200}>
          <button type="button">Info</button>
        </Tooltip>
      </div>,
    );
    fireEvent.mouseEnter(screen.getByRole('button'));
    advance(1000);
    const tip = screen.getByRole('tooltip');
    expect(screen.getByTestId('cell')).not.toContainElement(tip);
    expect(tip.className).toContain('whitespace-normal');
    expect(tip.style.maxWidth).toBe('calc(100vw - 16px)');
  });

  it('stays inside the window sideways, also on a phone', () => {
    const near = { top: 100, bottom: 120, left: 340, right: 364 };
    expect(tooltipPlacement(near, 'top', 260, 375).left).toBe(375 - 8 - 260);
    expect(tooltipPlacement({ ...near, left: 0, right: 20 }, 'bottom', 260, 375).left).toBe(8);
    expect(tooltipPlacement(near, 'top', 400, 375).left).toBe(8);
  });

  it('takes another width and position', () => {
    const trigger = renderTooltip({ width: 200, position: 'right' });
    fireEvent.mouseEnter(trigger);
    advance(1000);
    const tip = screen.getByRole('tooltip');
    expect(tip.style.width).toBe('200px');
    expect(tip).toHaveAttribute('data-position', 'right');
  });
});
