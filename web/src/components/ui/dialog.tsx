/**
 * Dialog (spec §2): the trigger toggles it open; while open the page does not scroll (restored
 * on close); the overlay, the close button and Escape close it; focus stays inside and returns
 * to the trigger afterwards. Escape pressed in a control whose own popup is open (a combobox's
 * list) closes only that popup. The open dialog is Radix UI's modal primitive
 * (`dialog-content.tsx`), fetched when a dialog first opens — or when its trigger is pointed at
 * or focused, so it is usually there by the click — not with the screen (decision 0045).
 *
 * Works controlled (`open` + `onOpenChange`) or uncontrolled (`defaultOpen`).
 */
import {
  cloneElement,
  createContext,
  type FocusEvent,
  lazy,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  Suspense,
  useContext,
  useRef,
  useState,
} from 'react';

export interface DialogProps {
  title: string;
  description?: string;
  /** An element (usually a `Button`) that opens the dialog. */
  trigger?: ReactElement<TriggerProps>;
  children?: ReactNode;
  /** Actions row at the bottom (confirm / cancel buttons). */
  footer?: ReactNode;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** `wide` for content that needs room, such as a chart; default fits a form. */
  size?: 'default' | 'wide';
  testid?: string;
}

interface TriggerProps {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  ref?: Ref<HTMLElement>;
  'aria-haspopup'?: 'dialog';
  'aria-expanded'?: boolean;
}

type ContentModule = typeof import('./dialog-content.tsx');
let loaded: ContentModule | null = null;

/** Fetches the open dialog's code (Radix); resolves at once when it is there. */
export function preloadDialog(): Promise<ContentModule> {
  return import('./dialog-content.tsx').then((module) => {
    loaded = module;
    return module;
  });
}

const LazyContent = lazy(async () => ({ default: (await preloadDialog()).DialogContent }));

/** Closes the dialog it is rendered in (`DialogClose`). */
const CloseContext = createContext<() => void>(() => {});

export function Dialog({
  title,
  description,
  trigger,
  children,
  footer,
  open,
  defaultOpen = false,
  onOpenChange,
  size = 'default',
  testid = 'dialog',
}: DialogProps) {
  const [uncontrolled, setUncontrolled] = useState(defaultOpen);
  const isOpen = open ?? uncontrolled;
  const triggerRef = useRef<HTMLElement>(null);
  const setOpen = (next: boolean) => {
    if (open === undefined) setUncontrolled(next);
    onOpenChange?.(next);
  };
  // Rendered straight away once loaded, so an open does not wait a render for the lazy wrapper.
  // Chosen once per dialog: switching from the lazy wrapper to the loaded component on a later
  // render is another component type to React, which mounted the open dialog afresh — its fields
  // and the focus in them were gone, and the next Tab went back to the close button.
  const [Content] = useState(() => loaded?.DialogContent ?? LazyContent);
  return (
    <>
      {trigger &&
        cloneElement(trigger, {
          ref: triggerRef,
          'aria-haspopup': 'dialog',
          'aria-expanded': isOpen,
          onClick: (event) => {
            trigger.props.onClick?.(event);
            if (!event.defaultPrevented) setOpen(!isOpen);
          },
          onPointerEnter: (event) => {
            trigger.props.onPointerEnter?.(event);
            void preloadDialog();
          },
          onFocus: (event) => {
            trigger.props.onFocus?.(event);
            void preloadDialog();
          },
        })}
      {isOpen && (
        <CloseContext.Provider value={() => setOpen(false)}>
          <Suspense fallback={null}>
            <Content
              title={title}
              description={description}
              footer={footer}
              onOpenChange={setOpen}
              size={size}
              testid={testid}
              returnFocus={triggerRef}
            >
              {children}
            </Content>
          </Suspense>
        </CloseContext.Provider>
      )}
    </>
  );
}

/** Closes the surrounding dialog when the wrapped element (a cancel button) is clicked. */
export function DialogClose({ children }: { children: ReactElement<TriggerProps> }) {
  const close = useContext(CloseContext);
  return cloneElement(children, {
    onClick: (event) => {
      children.props.onClick?.(event);
      if (!event.defaultPrevented) close();
    },
  });
}
