/**
 * Tooltip (spec §2): appears `delay` ms (default 1000) after the pointer enters the trigger or
 * the trigger receives keyboard focus, and hides at once on leave, blur or Escape (WCAG 1.4.13
 * dismissible). Width defaults to 120 px (never wider than the window), position to `top`.
 *
 * The tooltip is drawn in a portal at a fixed position next to its trigger: inside a table it
 * would inherit the one-line cells' `nowrap` and be clipped by the table's scroll frame, and
 * its text would then run past its dark box. Its text always wraps.
 *
 * The child must be one element that can hold a ref-less `aria-describedby` (a button, a link,
 * an icon with tabIndex); it is described by the tooltip while the tooltip is shown.
 */
import {
  type CSSProperties,
  cloneElement,
  type ReactElement,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';

export type TooltipPosition = 'top' | 'bottom' | 'left' | 'right';

export const TOOLTIP_DEFAULT_DELAY_MS = 1000;
export const TOOLTIP_DEFAULT_WIDTH_PX = 120;
/** Space between trigger and tooltip, and kept free at the window's edges (px). */
const GAP_PX = 8;

export interface TooltipProps {
  content: ReactNode;
  children: ReactElement<{ 'aria-describedby'?: string }>;
  delay?: number;
  width?: number;
  position?: TooltipPosition;
  testid?: string;
}

/** Where a tooltip `width` px wide goes for a trigger at `rect`, kept inside the window sideways. */
export function tooltipPlacement(
  rect: Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right'>,
  position: TooltipPosition,
  width: number,
  viewportWidth: number,
): CSSProperties {
  const shown = Math.min(width, viewportWidth - 2 * GAP_PX);
  const inside = (left: number) => Math.max(GAP_PX, Math.min(left, viewportWidth - GAP_PX - shown));
  const centre = (rect.left + rect.right) / 2;
  const middle = (rect.top + rect.bottom) / 2;
  switch (position) {
    case 'top':
      return { top: rect.top - GAP_PX, left: inside(centre - shown / 2), transform: 'translateY(-100%)' };
    case 'bottom':
      return { top: rect.bottom + GAP_PX, left: inside(centre - shown / 2) };
    case 'left':
      return { top: middle, left: inside(rect.left - GAP_PX - shown), transform: 'translateY(-50%)' };
    case 'right':
      return { top: middle, left: inside(rect.right + GAP_PX), transform: 'translateY(-50%)' };
  }
}

export function Tooltip({
  content,
  children,
  delay = TOOLTIP_DEFAULT_DELAY_MS,
  width = TOOLTIP_DEFAULT_WIDTH_PX,
  position = 'top',
  testid = 'tooltip',
}: TooltipProps) {
  const id = useId();
  const [placement, setPlacement] = useState<CSSProperties | null>(null);
  const trigger = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const place = () => {
    const rect = trigger.current?.getBoundingClientRect();
    if (rect) setPlacement(tooltipPlacement(rect, position, width, window.innerWidth));
  };
  const show = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(place, delay);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setPlacement(null);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const open = placement !== null;
  // A fixed tooltip would stay behind when the page or a table scrolls under it.
  useEffect(() => {
    if (!open) return;
    const close = () => setPlacement(null);
    window.addEventListener('scroll', close, true);
    return () => window.removeEventListener('scroll', close, true);
  }, [open]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper only listens; the child is the control
    <span
      ref={trigger}
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
      {open &&
        createPortal(
          <span
            role="tooltip"
            id={id}
            data-testid={testid}
            data-position={position}
            style={{ ...placement, width, maxWidth: `calc(100vw - ${2 * GAP_PX}px)` }}
            className="pointer-events-none fixed z-[60] rounded-md bg-ink px-2 py-1.5 text-left text-xs leading-snug font-normal break-words whitespace-normal text-white shadow-md"
          >
            {content}
          </span>,
          document.body,
        )}
    </span>
  );
}
