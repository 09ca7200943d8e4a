import type { ReactNode } from 'react';

/** The row under a step: optional back on the left, next on the right. */
export function StepActions({ back, next }: { back?: ReactNode; next: ReactNode }) {
  return (
    <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div>{back}</div>
      {next}
    </div>
  );
}
