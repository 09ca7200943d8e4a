import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog.tsx';
import { Toast } from './toast.tsx';
import { ToastProvider, useToast } from './toast-provider.tsx';

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Toast', () => {
  it('is an info toast by default', () => {
    render(<Toast title="Gespeichert" />);
    expect(screen.getByTestId('toast')).toHaveAttribute('data-type', 'info');
    expect(screen.getByTestId('toast-title')).toHaveTextContent('Information: Gespeichert');
  });

  it('shows the given type', () => {
    render(<Toast title="Fehlgeschlagen" type="error" testid="save-error" />);
    expect(screen.getByTestId('save-error')).toHaveAttribute('data-type', 'error');
    expect(screen.getByTestId('save-error-title')).toHaveTextContent('Fehler: Fehlgeschlagen');
  });

  it('disappears after the default 3000 ms and calls onClose once', () => {
    const onClose = vi.fn();
    render(<Toast title="Gespeichert" onClose={onClose} />);
    advance(2900);
    expect(screen.getByTestId('toast')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    advance(100);
    expect(screen.queryByTestId('toast')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('moves the progress bar in 100 ms ticks', () => {
    render(<Toast title="Gespeichert" duration={1000} />);
    const bar = screen.getByTestId('toast-progress');
    expect(bar.style.width).toBe('100%');
    advance(99);
    expect(bar.style.width).toBe('100%');
    advance(1);
    expect(bar.style.width).toBe('90%');
    advance(200);
    expect(bar.style.width).toBe('70%');
  });

  it('pauses the countdown while hovered and resumes when the pointer leaves', () => {
    render(<Toast title="Gespeichert" duration={1000} />);
    advance(500);
    fireEvent.mouseEnter(screen.getByTestId('toast'));
    const widthWhenPaused = screen.getByTestId('toast-progress').style.width;
    advance(5000);
    expect(screen.getByTestId('toast')).toBeInTheDocument();
    expect(screen.getByTestId('toast-progress').style.width).toBe(widthWhenPaused);
    fireEvent.mouseLeave(screen.getByTestId('toast'));
    advance(600);
    expect(screen.queryByTestId('toast')).toBeNull();
  });

  it('closes at once when the close button is pressed', () => {
    const onClose = vi.fn();
    render(<Toast title="Gespeichert" onClose={onClose} />);
    fireEvent.click(screen.getByTestId('toast-close'));
    expect(screen.queryByTestId('toast')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

function Trigger() {
  const { toast } = useToast();
  return (
    <button type="button" onClick={() => toast({ title: 'Raum angelegt', type: 'success' })}>
      go
    </button>
  );
}

describe('ToastProvider', () => {
  it('announces a toast through a polite live region and removes it after 5 s', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    const region = screen.getByTestId('toast-list');
    expect(region).toHaveAttribute('aria-live', 'polite');
    fireEvent.click(screen.getByText('go'));
    expect(region).toHaveTextContent('Raum angelegt');
    expect(screen.getByTestId('app-toast')).toHaveAttribute('data-type', 'success');
    advance(4900);
    expect(screen.getByTestId('app-toast')).toBeInTheDocument();
    advance(100);
    expect(screen.queryByTestId('app-toast')).toBeNull();
    expect(region.children).toHaveLength(0);
  });

  it('keeps every toast on its own clock', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('go'));
    advance(3000);
    fireEvent.click(screen.getByText('go'));
    expect(screen.getAllByTestId('app-toast')).toHaveLength(2);
    advance(2000);
    expect(screen.getAllByTestId('app-toast')).toHaveLength(1);
    advance(3000);
    expect(screen.queryAllByTestId('app-toast')).toHaveLength(0);
  });

  // Toasts sat at the very bottom, over the save buttons of a dialog and over a table's paging.
  it('shows toasts above the bottom edge and takes clicks only on a toast', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('go'));
    const region = screen.getByTestId('toast-region');
    const classes = (element: Element) => [...element.classList];
    expect(classes(region)).toContain('fixed');
    expect(classes(region)).not.toContain('bottom-0');
    expect(classes(region)).toContain('bottom-[calc(5rem+env(safe-area-inset-bottom))]');
    // On wide screens at the left of the content, away from right-aligned buttons and − / +.
    expect(classes(region)).toEqual(expect.arrayContaining(['sm:justify-start', 'md:left-60']));
    expect(classes(region).filter((c) => /justify-end|right-0/.test(c))).toEqual([]);
    // pointer-events is inherited: from the region down to a toast nothing but the toast takes clicks.
    expect(classes(region)).toContain('pointer-events-none');
    const toast = screen.getByTestId('app-toast');
    for (let element = toast.parentElement; element && element !== region; element = element.parentElement) {
      expect(classes(element).filter((c) => c.startsWith('pointer-events-'))).toEqual([]);
    }
    expect(classes(toast)).toContain('pointer-events-auto');
  });

  it('can be closed while a dialog is open without closing the dialog', async () => {
    function Both() {
      const { toast } = useToast();
      return (
        <Dialog title="Raum bearbeiten" defaultOpen testid="dlg">
          <button type="button" onClick={() => toast({ title: 'Fehler beim Speichern', type: 'error' })}>
            save
          </button>
        </Dialog>
      );
    }
    render(
      <ToastProvider>
        <Both />
      </ToastProvider>,
    );
    await act(async () => {});
    fireEvent.click(screen.getByText('save'));
    // Radix listens for presses outside once the dialog has settled.
    advance(10);
    const close = screen.getByTestId('app-toast-close');
    fireEvent.pointerDown(close);
    fireEvent.click(close);
    expect(screen.queryByTestId('app-toast')).toBeNull();
    expect(screen.getByTestId('dlg')).toBeInTheDocument();
  });

  it('refuses to work outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Trigger />)).toThrow('ToastProvider');
  });
});
