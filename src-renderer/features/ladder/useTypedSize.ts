// Typed quantity on the ladder (issue 24), as pro ladders do: with the ladder's rows focused,
// digits go to a typed buffer shown in the ladder's foot; Enter sets it as the order size, Esc
// abandons it, Backspace takes a digit back. It never sends an order, and while a size is being
// typed the ladder's order keys ([ ] Alt+[ ] ) send nothing (the trader said a size and has not
// committed it; nor do B / S, flatten and reverse: stores/typed-size). The global size presets 1-5 do not fire here (useGlobalHotkeys skips bare
// digits inside [data-typed-size]): in the ladder a digit is always the typed size.
// The digits belong to the market they were typed for: when the ladder's market changes (a linked
// Markets row, a pin moved) they are abandoned, and the foot says so, so they never become the
// size of an order in another market. Focus moving to another panel keeps them (B / S, flatten and
// reverse from any panel say "Nothing sent" while they wait).
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Decimal } from '../../../src-shared/money';
import { DEFAULT_RISK_LIMITS } from '../../../src-shared/ipc/risk';
import { fmtCount } from '../../lib/format';
import { useRisk } from '../../stores/risk';
import { useTrading } from '../../stores/trading';
import { setTypedPending } from '../../stores/typed-size';

/** The most digits a typed size takes (the risk limit's own bound is 9 digits). */
const MAX_DIGITS = 9;

export interface TypedSizeCheck {
  ok: boolean;
  /** the size to set, as count text */
  count?: string;
  message?: string;
  /** refused by the risk limit's contracts per order (not by its form) */
  overLimit?: boolean;
}

/** Whether typed digits make a size the ladder may set: a whole count above 0, at most the risk limit's contracts per order. */
export function checkTypedSize(typed: string, maxOrderContracts: string): TypedSizeCheck {
  if (!/^\d+$/.test(typed)) return { ok: false, message: 'Type a size in whole contracts, then Enter' };
  const n = new Decimal(typed);
  if (n.isZero()) return { ok: false, message: 'Size 0 is not a size: type a count above 0' };
  const max = new Decimal(maxOrderContracts);
  if (n.gt(max)) return { ok: false, overLimit: true, message: `Size ${fmtCount(n.toFixed(0))} is over the largest order the risk limits allow (${fmtCount(max.toFixed(0))} contracts)` };
  return { ok: true, count: n.toFixed(0) };
}

export interface TypedSize {
  /** the digits typed so far ('' after Backspace took them all), null when not typing */
  typed: string | null;
  /** what the last Enter or refused key said (an error stays until the next key; a refusal by the risk limit, until the limits change) */
  note: { kind: 'error' | 'info'; text: string; limit?: boolean } | null;
  /** handles a key of the ladder's rows; true when it was the typed size's */
  onKey: (e: KeyboardEvent<HTMLElement>) => boolean;
  /** true (and says so in the foot) when a typed size waits for Enter: the order keys then send nothing */
  blocksOrders: () => boolean;
}

export function useTypedSize(ticker: string | null): TypedSize {
  const [typed, setTypedState] = useState<string | null>(null);
  const typedRef = useRef<string | null>(null);
  const [note, setNote] = useState<TypedSize['note']>(null);
  const id = useId();
  const setTyped = useCallback(
    (v: string | null) => {
      typedRef.current = v;
      setTypedState(v);
      setTypedPending(id, v);
    },
    [id],
  );
  useEffect(() => () => setTypedPending(id, null), [id]);

  // a market switch abandons digits typed for the market before (in the commit that shows the new
  // market: no key lands between the two)
  const tickerRef = useRef(ticker);
  useLayoutEffect(() => {
    if (tickerRef.current === ticker) return;
    tickerRef.current = ticker;
    const cur = typedRef.current;
    if (cur === null) {
      setNote(null);
      return;
    }
    setTyped(null);
    setNote({ kind: 'info', text: `Typed size ${cur || '…'} abandoned: the ladder changed market to ${ticker ?? 'none'}` });
  }, [ticker, setTyped]);

  // a refusal by the risk limit ("Size 20 is over ...") is about the limits it was judged by:
  // when they change (raised, lowered) it no longer says what is true, so it goes
  const maxContracts = useRisk((s) => s.view?.limits.maxOrderContracts ?? null);
  const maxRef = useRef(maxContracts);
  useEffect(() => {
    if (maxRef.current === maxContracts) return;
    maxRef.current = maxContracts;
    setNote((n) => (n?.kind === 'error' && n.limit ? null : n));
  }, [maxContracts]);

  const onKey = (e: KeyboardEvent<HTMLElement>): boolean => {
    if (e.altKey || e.ctrlKey || e.metaKey) return false;
    const cur = typedRef.current;
    if (/^[0-9]$/.test(e.key)) {
      e.preventDefault();
      setNote(null);
      const next = (cur ?? '') + e.key;
      if (next.length > MAX_DIGITS) setNote({ kind: 'error', text: `At most ${MAX_DIGITS} digits` });
      else setTyped(next);
      return true;
    }
    if (cur === null) return false;
    if (e.key === 'Backspace') {
      e.preventDefault();
      setTyped(cur.slice(0, -1));
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setTyped(null);
      setNote({ kind: 'info', text: 'Typed size abandoned' });
      return true;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      const max = useRisk.getState().view?.limits.maxOrderContracts ?? DEFAULT_RISK_LIMITS.maxOrderContracts;
      const check = checkTypedSize(cur, max);
      setTyped(null);
      if (!check.ok || !check.count) {
        setNote({ kind: 'error', text: `${check.message ?? 'Not a size'}. Size unchanged.`, ...(check.overLimit ? { limit: true } : {}) });
        return true;
      }
      useTrading.getState().setDraft({ count: check.count });
      setNote({ kind: 'info', text: `Size set to ${fmtCount(check.count)}` });
      return true;
    }
    return false;
  };

  const blocksOrders = useCallback(() => {
    const cur = typedRef.current;
    if (cur === null) return false;
    setNote({ kind: 'error', text: `Nothing sent: size ${cur || '…'} is typed but not set. Enter sets it, Esc abandons it.` });
    return true;
  }, []);

  return { typed, note, onKey, blocksOrders };
}
