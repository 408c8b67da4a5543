// Honest loading, empty and error states: say what is loading, what is missing, and what the
// exchange said (its code and status) when something failed.
import type { ReactNode } from 'react';
import { describeError } from '../lib/errors';

export function Loading({ text }: { text: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {text}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state">{children}</div>;
}

export function ErrorState({ error, onRetry, context }: { error: unknown; onRetry?: () => void; context?: string }) {
  const e = describeError(error);
  const meta = [e.code && `code ${e.code}`, e.status !== undefined && `HTTP ${e.status}`, e.details].filter(Boolean).join(' · ');
  return (
    <div className="state-error" role="alert">
      <div className="err-title">
        {context ? `${context}: ` : ''}
        {e.title}
      </div>
      {e.message && e.message !== e.title && <div>{e.message}</div>}
      {meta && <div className="err-meta">{meta}</div>}
      {onRetry && (
        <div className="u-mt-6">
          <button type="button" className="btn btn-sm" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
    </div>
  );
}

/** One line for forms and tickets. */
export function InlineError({ error }: { error: unknown }) {
  if (!error) return null;
  const e = describeError(error);
  const tag = [e.code, e.status !== undefined ? `HTTP ${e.status}` : undefined].filter(Boolean).join(', ');
  return (
    <div className="inline-error" role="alert">
      {e.title}
      {e.message && e.message !== e.title ? ` ${e.message}` : ''}
      {tag ? ` [${tag}]` : ''}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** Renders the query's loading or error state, else its data. */
export function QueryView<T>({ query, loading, children, context }: { query: QueryLike<T>; loading: string; children: (data: T) => ReactNode; context?: string }) {
  if (query.isPending) return <Loading text={loading} />;
  if (query.error || query.data === undefined)
    return <ErrorState error={query.error ?? new Error('no data')} onRetry={() => void query.refetch()} {...(context ? { context } : {})} />;
  return <>{children(query.data)}</>;
}
