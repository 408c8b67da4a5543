// The order ticket: side, price, count, time in force, self-trade prevention, order group,
// subaccount. Validates tick and count as you type, prices the order (cost, fee estimate,
// payout) and shows the exchange's ack or its error.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { OrderAck } from '../../../src-shared/ipc/contract';
import { validateTicket } from '../../lib/order-check';
import { fmtCash, fmtCashExact, fmtCount } from '../../lib/format';
import { fmtPx, fmtTicks } from '../../lib/ticks';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { useRest } from '../../hooks/useRest';
import { bookOf, insideOf } from '../../stores/books';
import { useSession } from '../../stores/session';
import { useTrading, type StpChoice, type TimeInForceChoice } from '../../stores/trading';
import { usePrivate } from '../../stores/private';
import { ackText, placeBracket, placeLocal } from '../../services/trade';
import { wireCount, wirePrice } from '../../lib/order-check';
import { stepAt, type PriceRange } from '../../../src-shared/price-ranges';
import { Field } from '../../ui/Field';
import { Empty, InlineError } from '../../ui/States';
import { runCommand } from '../../lib/commands';
import { submitDraft } from './useTradingCommands';
import { usePanelTicker } from '../../hooks/useLink';

/**
 * A key in the ticket's price or count field: digits, '.' and editing keys type; ↑ ↓ and (price
 * only) = + - step the price one tick; any other printable key does nothing (it is neither typed
 * nor a trading key). Returns the step asked for.
 */
function fieldKey(e: KeyboardEvent<HTMLInputElement>, price: boolean): 'up' | 'down' | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const up = price && (e.key === 'ArrowUp' || e.key === '=' || e.key === '+');
  const down = price && (e.key === 'ArrowDown' || e.key === '-');
  if (up || down) {
    e.preventDefault();
    return up ? 'up' : 'down';
  }
  if (e.key.length === 1 && !/[0-9.]/.test(e.key)) e.preventDefault();
  return null;
}

type OrderMode = 'limit' | 'bracket' | 'stop' | 'take_profit' | 'trailing_stop';
const MODE_LABEL: Record<OrderMode, string> = { limit: 'Limit', bracket: 'Limit + bracket', stop: 'Stop', take_profit: 'Take profit', trailing_stop: 'Trailing stop' };

export function TicketPanel() {
  const ticker = usePanelTicker();
  const draft = useTrading((s) => s.draft);
  const setDraft = useTrading((s) => s.setDraft);
  const focusRequest = useTrading((s) => s.focusRequest);
  const presets = useSession((s) => s.settings.sizePresets);
  const info = useMarketInfo(ticker);
  const groups = useRest('getOrderGroups', undefined, { staleTime: 30_000 });
  const subaccounts = useRest('getSubaccountBalances', undefined, { staleTime: 60_000 });
  const position = usePrivate((s) => (ticker ? s.positions[ticker]?.position : undefined));
  const [mode, setMode] = useState<OrderMode>('limit');
  const [localOpts, setLocalOpts] = useState({ source: 'last' as 'last' | 'bid' | 'ask', through: '2', trail: '5', target: '5', stop: '5' });
  const [ack, setAck] = useState<OrderAck | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const priceRef = useRef<HTMLInputElement>(null);
  const countRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusRequest.n === 0) return;
    const el = focusRequest.field === 'price' ? priceRef.current : countRef.current;
    // after the panel is shown
    requestAnimationFrame(() => {
      el?.focus();
      el?.select();
    });
  }, [focusRequest]);

  useEffect(() => {
    setAck(null);
    setError(null);
    setTouched(false);
  }, [ticker]);

  if (!ticker) {
    return (
      <div className="panel">
        <Empty>No market selected. Pick one in Markets, then set the price and count here.</Empty>
      </div>
    );
  }

  const check = validateTicket(draft, { multiplier: info.fee.multiplier, makerFees: info.fee.makerFees });
  const isLocal = mode !== 'limit';
  const intOf = (t: string, min: number, max: number) => (/^\d{1,4}$/.test(t) && Number(t) >= min && Number(t) <= max ? Number(t) : null);
  const through = intOf(localOpts.through, 0, 100);
  const localReady =
    mode === 'limit' ||
    (through !== null &&
      (mode === 'trailing_stop' ? intOf(localOpts.trail, 1, 5000) !== null && check.count.ok : check.ready) &&
      (mode !== 'bracket' || (intOf(localOpts.target, 1, 5000) !== null && intOf(localOpts.stop, 1, 5000) !== null)));
  const ready = mode === 'trailing_stop' ? localReady : check.ready && localReady;
  const showPriceError = touched || draft.price !== '';
  const market = info.market.data?.market;
  const fillFrom = (which: 'bid' | 'ask') => {
    const inside = insideOf(bookOf(ticker));
    const t = which === 'bid' ? inside.bid : inside.ask;
    if (t !== null) setDraft({ price: fmtTicks(ticker, t) });
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (!ready || busy) return;
    setBusy(true);
    setAck(null);
    setError(null);
    try {
      if (mode === 'limit') setAck(await submitDraft(info.fee, ticker));
      else await submitLocal();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  // where a bracket's target and stop land, at the market's own step
  const bracketHint = (() => {
    const p = check.price.value;
    const t = intOf(localOpts.target, 1, 5000);
    const st = intOf(localOpts.stop, 1, 5000);
    if (mode !== 'bracket' || !p || t === null || st === null) return null;
    const step = stepAt(p, market?.price_ranges as PriceRange[] | undefined);
    const sign = draft.side === 'bid' ? 1 : -1;
    return { target: `target ${fmtPx(ticker, p.plus(step.mul(t * sign)))}`, stop: `stop ${fmtPx(ticker, p.minus(step.mul(st * sign)))}` };
  })();

  const submitLocal = async () => {
    const count = wireCount(check.count.value!);
    const sub = draft.subaccount ? { subaccount: Number(draft.subaccount) } : {};
    const limit = { kind: 'through' as const, ticks: through ?? 0 };
    const price = check.price.value ? wirePrice(check.price.value) : '';
    const side = draft.side === 'bid' ? 'Buy' : 'Sell';
    if (mode === 'bracket') {
      await placeBracket(`${side} ${fmtCount(count)} ${ticker} @ ${fmtPx(ticker, price)} with a bracket`, {
        ticker,
        side: draft.side,
        price,
        count,
        ...sub,
        targetTicks: Number(localOpts.target),
        stopTicks: Number(localOpts.stop),
        stopThroughTicks: through ?? 0,
        stopSource: localOpts.source,
      });
    } else if (mode === 'trailing_stop') {
      await placeLocal(`Local trailing stop: ${side.toLowerCase()} ${fmtCount(count)} ${ticker}, trail ${localOpts.trail} ticks`, {
        orders: [{ kind: 'trailing_stop', ticker, side: draft.side, count, trailTicks: Number(localOpts.trail), source: localOpts.source, limit, ...sub }],
        oco: false,
      });
    } else if (mode === 'stop' || mode === 'take_profit') {
      await placeLocal(`Local ${mode === 'stop' ? 'stop' : 'take profit'}: ${side.toLowerCase()} ${fmtCount(count)} ${ticker} when ${localOpts.source} reaches ${fmtPx(ticker, price)}`, {
        orders: [{ kind: mode, ticker, side: draft.side, count, trigger: price, source: localOpts.source, limit, ...sub }],
        oco: false,
      });
    }
  };

  const verb = draft.side === 'bid' ? 'Buy YES' : 'Sell YES';
  const submitText = busy
    ? 'Sending…'
    : !ready
      ? isLocal ? `${MODE_LABEL[mode]} (local)` : verb
      : mode === 'limit'
        ? `${verb} ${fmtCount(draft.count)} @ ${fmtPx(ticker, check.price.value ?? null)}`
        : mode === 'bracket'
          ? `${verb} ${fmtCount(draft.count)} @ ${fmtPx(ticker, check.price.value ?? null)} + bracket`
          : mode === 'trailing_stop'
            ? `Set trailing stop: ${draft.side === 'bid' ? 'buy' : 'sell'} ${fmtCount(draft.count)}`
            : `Set ${MODE_LABEL[mode].toLowerCase()}: ${draft.side === 'bid' ? 'buy' : 'sell'} ${fmtCount(draft.count)} at ${localOpts.source} ${fmtPx(ticker, check.price.value ?? null)}`;
  const q = check.quote;

  return (
    <div className="panel">
      <div className="panel-bar">
        <strong>{ticker}</strong>
        <span className="dim grow u-ov-hidden-to-ellipsis-ws-nowrap">
          {market?.title ?? (info.market.isPending ? 'Loading market…' : '')}
        </span>
        {position && position !== '0.00' && <span className="badge">pos {fmtCount(position)}</span>}
      </div>
      <div className="panel-body">
        {/* the panel key focuses the ticket itself (not a field), so = - 1-5 T act on it; P and Q enter the fields */}
        <form className="ticket" onSubmit={(e) => void submit(e)} aria-label="Order ticket" tabIndex={-1} data-autofocus>
          <div className="side-toggle" role="group" aria-label="Side">
            <button type="button" className="buy" aria-pressed={draft.side === 'bid'} onClick={() => setDraft({ side: 'bid' })}>
              ▲ Buy YES (bid)
            </button>
            <button type="button" className="sell" aria-pressed={draft.side === 'ask'} onClick={() => setDraft({ side: 'ask' })}>
              ▼ Sell YES (ask)
            </button>
          </div>
          <div className="dim u-fs-11">
            {draft.side === 'bid' ? 'Buys YES at the price; pays $1 a contract if YES settles.' : 'Sells YES at the price, the same as buying NO at 1 − price.'}
          </div>
          <div className="form-grid u-gtc-1fr-1fr">
            <Field label="Order type" hint={isLocal ? 'held by this terminal: fires only while it runs and is connected' : undefined}>
              <select value={mode} onChange={(e) => setMode(e.target.value as OrderMode)} aria-label="Order type">
                {(Object.keys(MODE_LABEL) as OrderMode[]).map((m) => (
                  <option key={m} value={m}>
                    {MODE_LABEL[m]}
                    {m === 'limit' ? '' : ' (local)'}
                  </option>
                ))}
              </select>
            </Field>
            {isLocal ? (
              <Field label={mode === 'bracket' ? 'Stop watches' : 'Trigger on'}>
                <select value={localOpts.source} onChange={(e) => setLocalOpts({ ...localOpts, source: e.target.value as 'last' | 'bid' | 'ask' })} aria-label="Trigger source">
                  <option value="last">Last trade</option>
                  <option value="bid">Best bid</option>
                  <option value="ask">Best ask</option>
                </select>
              </Field>
            ) : (
              <span />
            )}
          </div>
          <div className="form-grid u-gtc-1fr-1fr">
            <Field label={mode === 'stop' || mode === 'take_profit' ? 'Trigger (YES, $)' : mode === 'trailing_stop' ? 'Price (not used)' : 'Price (YES, $)'} error={showPriceError && !check.price.ok ? check.price.message : undefined} hint={draft.side === 'ask' && check.price.value ? `NO ${fmtPx(ticker, check.price.value.neg().add(1))}` : undefined}>
              <div className="row u-fw-nowrap-gap-2">
                <input
                  ref={priceRef}
                  name="price"
                  className="grow num"
                  inputMode="decimal"
                  autoComplete="off"
                  value={draft.price}
                  aria-invalid={showPriceError && !check.price.ok}
                  onChange={(e) => setDraft({ price: e.target.value })}
                  onKeyDown={(e) => {
                    const step = fieldKey(e, true);
                    if (step) runCommand(step === 'up' ? 'ticket.priceUp' : 'ticket.priceDown');
                  }}
                  placeholder="0.50"
                />
                <button type="button" className="btn btn-sm" onClick={() => runCommand('ticket.priceDown')} aria-label="Price down one tick" tabIndex={-1}>
                  −
                </button>
                <button type="button" className="btn btn-sm" onClick={() => runCommand('ticket.priceUp')} aria-label="Price up one tick" tabIndex={-1}>
                  +
                </button>
              </div>
            </Field>
            <Field label="Count (contracts)" error={touched && !check.count.ok ? check.count.message : draft.count && !check.count.ok ? check.count.message : undefined}>
              <input
                ref={countRef}
                name="count"
                className="num"
                inputMode="decimal"
                autoComplete="off"
                value={draft.count}
                aria-invalid={!!draft.count && !check.count.ok}
                onChange={(e) => setDraft({ count: e.target.value })}
                onKeyDown={(e) => void fieldKey(e, false)}
                placeholder="1"
              />
            </Field>
          </div>
          {isLocal && (
            <div className="form-grid u-gtc-1fr-1fr-1fr">
            {mode === 'trailing_stop' && (
                <Field label="Trail (ticks)">
                  <input className="num" inputMode="numeric" value={localOpts.trail} onChange={(e) => setLocalOpts({ ...localOpts, trail: e.target.value })} aria-label="Trail ticks" aria-invalid={intOf(localOpts.trail, 1, 5000) === null} />
                </Field>
              )}
              {mode === 'bracket' && (
                <>
                  <Field label="Target (ticks away)" hint={bracketHint?.target}>
                    <input className="num" inputMode="numeric" value={localOpts.target} onChange={(e) => setLocalOpts({ ...localOpts, target: e.target.value })} aria-label="Target ticks" aria-invalid={intOf(localOpts.target, 1, 5000) === null} />
                  </Field>
                  <Field label="Stop (ticks away)" hint={bracketHint?.stop}>
                    <input className="num" inputMode="numeric" value={localOpts.stop} onChange={(e) => setLocalOpts({ ...localOpts, stop: e.target.value })} aria-label="Stop ticks" aria-invalid={intOf(localOpts.stop, 1, 5000) === null} />
                  </Field>
                </>
              )}
              {isLocal && (
                <Field label="Ticks through" hint="sent this far through the market" error={through === null ? '0 to 100 ticks' : undefined}>
                  <input className="num" inputMode="numeric" value={localOpts.through} onChange={(e) => setLocalOpts({ ...localOpts, through: e.target.value })} aria-label="Ticks through" />
                </Field>
              )}
            </div>
          )}
          <div className="row">
            <button type="button" className="btn btn-sm" onClick={() => fillFrom('bid')}>
              at bid
            </button>
            <button type="button" className="btn btn-sm" onClick={() => fillFrom('ask')}>
              at ask
            </button>
            <span className="grow" />
            {presets.map((p, i) => (
              <button key={`${p}-${i}`} type="button" className={`btn btn-sm${draft.count === p ? ' btn-on' : ''}`} onClick={() => setDraft({ count: p })} title={`Size preset ${i + 1} (key ${i + 1})`}>
                {p}
              </button>
            ))}
          </div>
          <div className="form-grid u-gtc-1fr-1fr">
            <Field label="Time in force">
              <select value={draft.tif} onChange={(e) => setDraft({ tif: e.target.value as TimeInForceChoice })}>
                <option value="good_till_canceled">Good till canceled</option>
                <option value="immediate_or_cancel">Immediate or cancel</option>
                <option value="fill_or_kill">Fill or kill</option>
              </select>
            </Field>
            <Field label="Self-trade prevention">
              <select value={draft.stp} onChange={(e) => setDraft({ stp: e.target.value as StpChoice })}>
                <option value="">Exchange default</option>
                <option value="taker_at_cross">Cancel the taker</option>
                <option value="maker">Cancel the resting maker</option>
              </select>
            </Field>
            <Field label="Order group" hint={groups.error ? 'order groups unavailable' : undefined}>
              <select value={draft.orderGroupId} onChange={(e) => setDraft({ orderGroupId: e.target.value })}>
                <option value="">None</option>
                {(groups.data?.order_groups ?? []).map((g) => (
                  <option key={g.order_group_id} value={g.order_group_id}>
                    {g.order_group_id} ({fmtCount(g.contracts_used ?? '0')}/{fmtCount(g.contracts_limit ?? '0')})
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Subaccount">
              <select value={draft.subaccount} onChange={(e) => setDraft({ subaccount: e.target.value })}>
                <option value="">Primary (0)</option>
                {(subaccounts.data?.subaccount_balances ?? [])
                  .filter((s) => s.subaccount_number !== 0)
                  .map((s) => (
                    <option key={s.subaccount_number} value={String(s.subaccount_number)}>
                      #{s.subaccount_number} ({fmtCash(s.balance)})
                    </option>
                  ))}
              </select>
            </Field>
            <Field label="Expires (optional)">
              <input type="datetime-local" value={draft.expiration} onChange={(e) => setDraft({ expiration: e.target.value })} />
            </Field>
            <label className="check u-as-end-h-22">
              <input type="checkbox" checked={draft.postOnly} onChange={(e) => setDraft({ postOnly: e.target.checked })} />
              Post only (never take)
            </label>
          </div>
          <dl className="summary" aria-live="polite">
            <dt>{draft.side === 'bid' ? 'Cost' : 'Collateral (NO side)'}</dt>
            <dd className="num">{q ? fmtCashExact(q.cost) : '—'}</dd>
            <dt>Fee if it takes (est.)</dt>
            <dd className="num">{q ? fmtCash(q.takerFee) : '—'}</dd>
            {q?.makerFee && (
              <>
                <dt>Fee if it rests (est.)</dt>
                <dd className="num">{fmtCash(q.makerFee)}</dd>
              </>
            )}
            <dt>Pays if {draft.side === 'bid' ? 'YES' : 'NO'} wins</dt>
            <dd className="num">{q ? fmtCash(q.payout) : '—'}</dd>
            <dt>Max profit after fee</dt>
            <dd className="num">{q ? fmtCashExact(q.maxProfit) : '—'}</dd>
          </dl>
          <div className="faint u-fs-11">
            Fee: ceil to the cent of 0.07 × {info.fee.multiplier ?? '1'} × C × P × (1 − P)
            {info.fee.overridden ? ' (event override)' : ''}
            {info.fee.type ? `; type ${info.fee.type}` : ''}.
          </div>
          <button type="submit" className={`btn submit ${draft.side === 'bid' ? 'btn-bid' : 'btn-ask'}${isLocal ? ' btn-local' : ''}`} disabled={busy || !ready}>
            {submitText}
            <span className="kbd u-ml-6">
              Ctrl+Enter
            </span>
          </button>
          {ack && error === null && (
            <div className="ack" role="status">
              Accepted: {ackText(ack)}
            </div>
          )}
          {error !== null && <InlineError error={error} />}
        </form>
      </div>
    </div>
  );
}
