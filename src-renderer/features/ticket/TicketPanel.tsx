// The order ticket: side, price, count, time in force, self-trade prevention, order group,
// subaccount. Validates tick and count as you type, prices the order (cost, fee estimate,
// payout) and shows the exchange's ack or its error. The local order types live in
// ticket-modes.ts / send-local.ts; the options and summary are their own components.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { OrderAck } from '../../../src-shared/ipc/contract';
import type { PriceRange } from '../../../src-shared/price-ranges';
import { validateTicket } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { fmtPx, fmtTicks } from '../../lib/ticks';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { bookOf, insideOf } from '../../stores/books';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { usePrivate } from '../../stores/private';
import { ackText } from '../../services/trade';
import { Field } from '../../ui/Field';
import { Empty, InlineError } from '../../ui/States';
import { runCommand } from '../../lib/commands';
import { submitDraft } from './useTradingCommands';
import { submitOrigin } from './submit-shown';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';
import { bracketHint as bracketHintOf, DEFAULT_LOCAL_OPTS, fieldKey, MODE_LABEL, submitText as submitTextOf, ticketReady, type OrderMode, type TriggerSource } from './ticket-modes';
import { sendLocalOrder } from './send-local';
import { LocalOrderFields } from './LocalOrderFields';
import { TicketOptions } from './TicketOptions';
import { TicketSummary } from './TicketSummary';

export function TicketPanel() {
  const ticker = usePanelTicker();
  useAwaitFirstMarket(ticker); // a new panel in a link colour is fed by the next pick in Markets
  const draft = useTrading((s) => s.draft);
  const setDraft = useTrading((s) => s.setDraft);
  const focusRequest = useTrading((s) => s.focusRequest);
  const presets = useSession((s) => s.settings.sizePresets);
  const info = useMarketInfo(ticker);
  const position = usePrivate((s) => (ticker ? s.positions[ticker]?.position : undefined));
  const [mode, setMode] = useState<OrderMode>('limit');
  const [localOpts, setLocalOpts] = useState(DEFAULT_LOCAL_OPTS);
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

  const isLocal = mode !== 'limit';
  // a limit order's price must be one the market takes (its price ranges, once the market is read)
  const ranges = !isLocal && info.market.data?.market ? ((info.market.data.market.price_ranges ?? []) as PriceRange[]) : undefined;
  const check = validateTicket(draft, { multiplier: info.fee.multiplier, makerFees: info.fee.makerFees }, ranges);
  const ready = ticketReady(mode, localOpts, check);
  const showPriceError = touched || draft.price !== '';
  const market = info.market.data?.market;
  const fillFrom = (which: 'bid' | 'ask') => {
    const inside = insideOf(bookOf(ticker));
    const t = which === 'bid' ? inside.bid : inside.ask;
    if (t !== null) setDraft({ price: fmtTicks(ticker, t) });
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const origin = submitOrigin(e?.currentTarget);
    setTouched(true);
    if (!ready || busy) return;
    setBusy(true);
    setAck(null);
    setError(null);
    try {
      if (mode === 'limit') setAck(await submitDraft(info.fee, ticker, origin));
      else await sendLocalOrder(mode, localOpts, draft, ticker, { price: check.price.value, count: check.count.value! });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const bracketHint = bracketHintOf(mode, localOpts, draft.side, ticker, check.price.value, market?.price_ranges as PriceRange[] | undefined);
  const submitText = submitTextOf({ mode, busy, ready, side: draft.side, count: draft.count, ticker, price: check.price.value ?? null, source: localOpts.source });

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
                <select value={localOpts.source} onChange={(e) => setLocalOpts({ ...localOpts, source: e.target.value as TriggerSource })} aria-label="Trigger source">
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
          {isLocal && <LocalOrderFields mode={mode} opts={localOpts} onChange={setLocalOpts} hint={bracketHint} />}
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
          <TicketOptions />
          <TicketSummary side={draft.side} quote={check.quote} fee={info.fee} />
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
