import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button.tsx';
import { Combobox } from './combobox.tsx';
import { Dialog, DialogClose } from './dialog.tsx';

function Example({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Dialog
        title="Raum löschen"
        description="Der Raum wird endgültig gelöscht."
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          onOpenChange?.(next);
        }}
        trigger={<Button testid="open-dialog">Löschen</Button>}
        footer={
          <>
            <DialogClose>
              <Button variant="secondary" testid="cancel">
                Abbrechen
              </Button>
            </DialogClose>
            <Button variant="danger" testid="confirm">
              Endgültig löschen
            </Button>
          </>
        }
      >
        <input aria-label="Name bestätigen" />
      </Dialog>
      <button type="button">Außerhalb</button>
    </>
  );
}

function WithCombobox() {
  const [room, setRoom] = useState<string | null>(null);
  return (
    <Dialog title="Gerät zuordnen" defaultOpen>
      <input aria-label="Notiz" defaultValue="Heizkörper links" />
      <Combobox
        label="Raum"
        value={room}
        onChange={setRoom}
        options={[
          { id: 'a', item: 'Raum 1', testid: 'opt-a' },
          { id: 'b', item: 'Raum 2', testid: 'opt-b' },
        ]}
      />
    </Dialog>
  );
}

const bodyOverflow = () => getComputedStyle(document.body).overflow;

describe('Dialog', () => {
  it('opens from its trigger, is a labelled modal dialog and closes with the close button', async () => {
    render(<Example />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByTestId('open-dialog'));
    const dialog = screen.getByRole('dialog', { name: 'Raum löschen' });
    expect(dialog).toHaveAccessibleDescription('Der Raum wird endgültig gelöscht.');
    await userEvent.click(screen.getByTestId('dialog-close'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('locks page scrolling while open and restores it on close', async () => {
    render(<Example />);
    const before = bodyOverflow();
    expect(before).not.toBe('hidden');
    await userEvent.click(screen.getByTestId('open-dialog'));
    expect(bodyOverflow()).toBe('hidden');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(bodyOverflow()).toBe(before));
  });

  it('closes on a click on the overlay', async () => {
    render(<Example />);
    await userEvent.click(screen.getByTestId('open-dialog'));
    await userEvent.click(screen.getByTestId('dialog-overlay'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape and returns focus to the trigger', async () => {
    const onOpenChange = vi.fn();
    render(<Example onOpenChange={onOpenChange} />);
    await userEvent.click(screen.getByTestId('open-dialog'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(screen.getByTestId('open-dialog')).toHaveFocus();
  });

  it('opens with focus on its first field, or on the first action when it has none', async () => {
    render(<Example />);
    await userEvent.click(screen.getByTestId('open-dialog'));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name bestätigen' })).toHaveFocus());

    function Confirm() {
      return (
        <Dialog
          title="Gerät löschen?"
          defaultOpen
          footer={
            <>
              <Button variant="secondary">Abbrechen</Button>
              <Button variant="danger">Löschen</Button>
            </>
          }
        />
      );
    }
    render(<Confirm />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Abbrechen' })).toHaveFocus());
  });

  it('returns focus to the control that opened a dialog without a trigger, after saving too', async () => {
    function RowEdit() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Aula bearbeiten
          </button>
          <Dialog
            title="Raum bearbeiten"
            open={open}
            onOpenChange={setOpen}
            footer={<Button onClick={() => setOpen(false)}>Speichern</Button>}
          />
        </>
      );
    }
    render(<RowEdit />);
    await userEvent.click(screen.getByRole('button', { name: 'Aula bearbeiten' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Speichern' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Aula bearbeiten' })).toHaveFocus());
  });

  it('puts focus on the main region, not the body, when the opener is gone', async () => {
    function MenuEdit() {
      const [open, setOpen] = useState(false);
      return (
        <main id="content" tabIndex={-1}>
          {!open && (
            <button type="button" onClick={() => setOpen(true)}>
              Bearbeiten
            </button>
          )}
          <Dialog title="Schließzeit bearbeiten" open={open} onOpenChange={setOpen} />
        </main>
      );
    }
    render(<MenuEdit />);
    await userEvent.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    await screen.findByRole('dialog', { name: 'Schließzeit bearbeiten' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('keeps keyboard focus inside while open', async () => {
    render(<Example />);
    await userEvent.click(screen.getByTestId('open-dialog'));
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 6; i += 1) {
      await userEvent.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    expect(screen.getByText('Außerhalb')).not.toHaveFocus();
  });

  it('closes from an action wrapped in DialogClose', async () => {
    render(<Example />);
    await userEvent.click(screen.getByTestId('open-dialog'));
    await userEvent.click(screen.getByTestId('cancel'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lets Escape in an open combobox close only its list, keeping the dialog and its input', async () => {
    render(<WithCombobox />);
    const combobox = screen.getByRole('combobox');
    await userEvent.click(combobox);
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{ArrowDown}');
    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).toHaveValue('Raum 1');
    expect(screen.getByLabelText('Notiz')).toHaveValue('Heizkörper links');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
