import { type ReactNode, useId } from 'react';

/** One titled block of a settings screen: a region named by its heading, so it can be found by name. */
export function SettingsCard({
  title,
  description,
  children,
  testid,
  tone = 'default',
}: {
  title: string;
  description?: string;
  children: ReactNode;
  testid: string;
  tone?: 'default' | 'danger';
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      data-testid={testid}
      className={`rounded-xl border bg-white p-5 shadow-sm sm:p-6 ${tone === 'danger' ? 'border-red-200' : 'border-stone-200'}`}
    >
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-stone-600">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
