/**
 * The way from a list (devices, units) to the import of its kind (decision 0063), looking like a
 * secondary button. Shown only to members who may create what is imported; the caller checks.
 */
import { Link } from 'react-router';

export function ImportLink({
  kind,
  label,
  testid,
}: {
  kind: 'units' | 'devices';
  label: string;
  testid: string;
}) {
  return (
    <Link
      to={`/imports?kind=${kind}`}
      className="inline-flex h-10 items-center justify-center whitespace-nowrap rounded-lg border border-stone-300 bg-white px-4 text-sm font-medium text-ink hover:bg-stone-100"
      data-testid={testid}
    >
      {label}
    </Link>
  );
}
