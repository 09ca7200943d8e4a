import type { ReactNode } from 'react';

/** One widget's block in the catalogue: a heading and its states side by side. */
export function CatalogueSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid={`catalogue-${id}`}
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm"
    >
      <h2 id={`${id}-title`} className="mb-4 text-lg font-semibold text-ink">
        {title}
      </h2>
      <div className="flex flex-col gap-5">{children}</div>
    </section>
  );
}

/** A labelled state of a widget inside a section. */
export function CatalogueState({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{label}</h3>
      {children}
    </div>
  );
}
