// FCM, a subtrader's blocked categories: the set in the real service's form, one switch at a time.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { rest } from '../../lib/rest';
import { errorText } from '../../lib/errors';
import { useRest } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { ErrorState, Loading } from '../../ui/States';

export function Blocked({ id }: { id: string }) {
  const qc = useQueryClient();
  const q = useRest('getSubtraderBlockedCategories', { query: { subtrader_id: id } });
  const [category, setCategory] = useState('');
  const set = async (cat: string, blocked: boolean) => {
    try {
      await rest('setSubtraderBlockedCategory', { body: { subtrader_id: id, category: cat, blocked } });
      notify('success', `${blocked ? 'Blocked' : 'Unblocked'} ${cat} for ${id}`);
      void qc.invalidateQueries({ queryKey: ['rest', 'getSubtraderBlockedCategories'] });
      setCategory('');
    } catch (err) {
      notify('error', 'Could not change the blocked categories', errorText(err));
    }
  };
  if (q.isPending) return <Loading text="Loading blocked categories…" />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <div className="panel-body pad col">
      {q.data.categories.length === 0 ? (
        <div className="dim">Nothing is blocked for {id}.</div>
      ) : (
        <ul className="u-m-0-pl-16">
          {q.data.categories.map((c) => (
            <li key={c}>
              {c}{' '}
              <button type="button" className="btn btn-sm" onClick={() => void set(c, false)}>
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (category.trim()) void set(category.trim(), true);
        }}
      >
        <input placeholder="Category, e.g. Sports" aria-label="Category to block" value={category} onChange={(e) => setCategory(e.target.value)} />
        <button type="submit" className="btn btn-sm" disabled={!category.trim()}>
          Block category
        </button>
      </form>
    </div>
  );
}
