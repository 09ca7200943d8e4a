import type { ReactNode } from 'react';

/** A centred page-sized box for the moments between screens (signing in, signing out). */
export function FullPageStatus({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <main
      className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center"
      data-testid={testId}
    >
      {children}
    </main>
  );
}
