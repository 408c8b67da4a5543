import type { ReactNode } from 'react';

/** A labelled control with its validation message or hint underneath. */
export function Field({ label, error, hint, children, className }: { label: string; error?: string | undefined; hint?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <label className={`field${className ? ` ${className}` : ''}`}>
      <span>{label}</span>
      {children}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span className="field-hint">{hint}</span>
      ) : null}
    </label>
  );
}

/** Key/value list for records whose fields vary (metadata, live data details). */
export function KeyValues({ entries }: { entries: [string, ReactNode][] }) {
  return (
    <dl className="kv">
      {entries.map(([k, v]) => (
        <div key={k} className="u-d-contents">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Renders free-form JSON values readably (objects one level deep, the rest as JSON text). */
export function freeForm(value: unknown): ReactNode {
  if (value === null || value === undefined) return <span className="faint">—</span>;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return <span className="mono">{JSON.stringify(value)}</span>;
}
