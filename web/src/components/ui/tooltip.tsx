/**
 * Tooltip (spec §2): appears `delay` ms (default 1000) after the pointer enters the trigger or
 * the trigger receives keyboard focus, and hides at once on leave, blur or Escape (WCAG 1.4.13
 * dismissible). Width defaults to 120 px, position to `top`.
 *
 * The child must be one element that can hold a ref-less `aria-describedby` (a button, a link,
 * an icon with tabIndex); it is described by the tooltip while the tooltip is shown.
 */
import { cloneElement, type ReactElement, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { cx } from './cx.ts';

export type TooltipPosition = 'top' | 'bottom' | 'left' | 'right';

export const TOOLTIP_DEFAULT_DELAY_MS = 1000;
export const TOOLTIP_DEFAULT_WIDTH_PX = 120;

export interface TooltipProps {
  content: ReactNode;
  children: ReactElement<{ 'aria-describedby'?: string }>;
  delay?: number;
  width?: number;
  position?: TooltipPosition;
  testid?: string;
}

const positionClass: Record<TooltipPosition, string> = {
  top: 'bottom-full left-1/2 mb-2 -translate-x-1/2',
  bottom: 'top-full left-1/2 mt-2 -translate-x-1/2',
  left: 'right-full top-1/2 mr-2 -translate-y-1/2',
  right: 'left-full top-1/2 ml-2 -translate-y-1/2',
};

export function Tooltip({
  content,
  children,
  delay = TOOLTIP_DEFAULT_DELAY_MS,
  width = TOOLTIP_DEFAULT_WIDTH_PX,
  position = 'top',
  testid = 'tooltip',
}: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), delay);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen(false);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper only listens; the child is the control
    <span
      className="relative inline-flex"
      data-testid={`${testid}-trigger`}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(event) => {
        if (event.key === 'Escape') hide();
      }}
    >
      {cloneElement(children, { 'aria-describedby': open ? id : children.props['aria-describedby'] })}
      {open && (
        <span
          role="tooltip"
          id={id}
          data-testid={testid}
          data-position={position}
          style={{ width }}
          className={cx(
            'pointer-events-none absolute z-40 rounded-md bg-ink px-2 py-1.5 text-center text-xs leading-snug font-normal text-white shadow-md',
            positionClass[position],
          )}
        >
          {content}
        </span>
      )}
    </span>
  );
}
