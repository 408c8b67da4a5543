// The order ticket: side, price, count, time in force, self-trade prevention, order group,
// subaccount. Validates tick and count as you type, prices the order (cost, fee estimate,
// payout) and shows the exchange's ack or its error. The local order types live in
// ticket-modes.ts / send-local.ts; the options and summary are their own components.
import { useCallback, useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { OrderAck } from '../../../src-shared/ipc/contract';
import type { PriceRange } from '../../../src-shared/price-ranges';
import { validateTicket, type TicketCheck } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { fmtTicks } from '../../lib/ticks';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { bookOf, insideOf } from '../../stores/books';
import { useSession } from '../../stores/session';
import { useTrading, type TicketDraft } from '../../stores/trading';
import { usePrivate } from '../../stores/private';
import { Empty } from '../../ui/States';
import { submitDraft } from './useTradingCommands';
import { submitOrigin } from './submit-shown';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';
import { bracketHint as bracketHintOf, DEFAULT_LOCAL_OPTS, submitText as submitTextOf, ticketReady, type OrderMode } from './ticket-modes';
import { sendLocalOrder } from './send-local';
import { LocalOrderFields } from './LocalOrderFields';
import { TicketOptions } from './TicketOptions';
import { TicketSummary } from './TicketSummary';
import { FillRow, OrderTypeRow, PriceCountRow, SideToggle, SubmitBar } from './TicketFields';
import { focusLater } from '../../lib/focus-later';

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
  const status = useTicketStatus();
  const { ack, error, busy, touched } = status;
  const priceRef = useRef<HTMLInputElement>(null);
  const countRef = useRef<HTMLInputElement>(null);
  useFieldFocus(focusRequest, priceRef, countRef);
  const { clear } = status;
  useEffect(() => clear(), [ticker, clear]);

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

  const submit = ticketSubmitter({ ticker, mode, localOpts, draft, check, ready, fee: info.fee, status });

  const bracketHint = bracketHintOf(mode, localOpts, draft.side, ticker, check.price.value, market?.price_ranges as PriceRange[] | undefined);
  const submitText = submitTextOf({ mode, busy, ready, side: draft.side, count: draft.count, ticker, price: check.price.value ?? null, source: localOpts.source });

  return (
    <div className="panel">
      <div className="panel-bar">
        <strong>{ticker}</strong>
        <span className="dim grow u-ov-hidden-to-ellipsis-ws-nowrap" title={market?.title ?? undefined}>
          {market?.title ?? (info.market.isPending ? 'Loading market…' : '')}
        </span>
        {position && position !== '0.00' && <span className="badge">pos {fmtCount(position)}</span>}
      </div>
      <div className="panel-body">
        {/* the panel key focuses the ticket itself (not a field), so = - 1-5 T act on it; P and Q enter the fields */}
        <form className="ticket" onSubmit={(e) => void submit(e)} aria-label="Order ticket" tabIndex={-1} data-autofocus>
          <SideToggle side={draft.side} setDraft={setDraft} />
          <OrderTypeRow mode={mode} setMode={setMode} localOpts={localOpts} setLocalOpts={setLocalOpts} />
          <PriceCountRow ticker={ticker} mode={mode} draft={draft} setDraft={setDraft} check={check} showPriceError={showPriceError} touched={touched} priceRef={priceRef} countRef={countRef} />
          {isLocal && <LocalOrderFields mode={mode} opts={localOpts} onChange={setLocalOpts} hint={bracketHint} />}
          <FillRow fillFrom={fillFrom} presets={presets} count={draft.count} setDraft={setDraft} />
          <TicketOptions />
          <TicketSummary side={draft.side} quote={check.quote} fee={info.fee} />
          <SubmitBar side={draft.side} isLocal={isLocal} disabled={busy || !ready} text={submitText} ack={ack} error={error} />
        </form>
      </div>
    </div>
  );
}

/** What the last submit did: the exchange's ack or the error, busy while it is out; `touched` once one was tried. */
function useTicketStatus() {
  const [ack, setAck] = useState<OrderAck | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  // a new market starts with no answer and no complaint
  const clear = useCallback(() => {
    setAck(null);
    setError(null);
    setTouched(false);
  }, []);
  return { ack, setAck, error, setError, busy, setBusy, touched, setTouched, clear };
}
type TicketStatus = ReturnType<typeof useTicketStatus>;

/** P and Q (a focus request) put the caret in the price or the count, selected, once the panel is shown. */
function useFieldFocus(focusRequest: { n: number; field: 'price' | 'count' }, priceRef: RefObject<HTMLInputElement | null>, countRef: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    if (focusRequest.n === 0) return;
    const el = focusRequest.field === 'price' ? priceRef.current : countRef.current;
    // after the panel is shown, unless the trader moved on meanwhile
    focusLater(() => el, { then: () => el?.select() });
  }, [focusRequest, priceRef, countRef]);
}

interface SubmitInput {
  ticker: string;
  mode: OrderMode;
  localOpts: typeof DEFAULT_LOCAL_OPTS;
  draft: TicketDraft;
  check: TicketCheck;
  ready: boolean;
  fee: Parameters<typeof submitDraft>[0];
  status: TicketStatus;
}

/** The form's submit: a limit order to the exchange (its ack shown), or a local order to main. */
function ticketSubmitter({ ticker, mode, localOpts, draft, check, ready, fee, status }: SubmitInput) {
  const { busy, setBusy, setAck, setError, setTouched } = status;
  return async (e?: FormEvent) => {
    e?.preventDefault();
    const origin = submitOrigin(e?.currentTarget);
    setTouched(true);
    if (!ready || busy) return;
    setBusy(true);
    setAck(null);
    setError(null);
    try {
      if (mode === 'limit') setAck(await submitDraft(fee, ticker, origin));
      else await sendLocalOrder(mode, localOpts, draft, ticker, { price: check.price.value, count: check.count.value! });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
}
