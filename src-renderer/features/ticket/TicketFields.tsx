// The order ticket's rows (TicketPanel.tsx holds their state): side, order type and trigger
// source, price and count, the fill buttons and size presets, and the submit bar with its answer.
import type { RefObject } from 'react';
import type { OrderAck } from '../../../src-shared/ipc/contract';
import type { TicketCheck } from '../../lib/order-check';
import { fmtPx } from '../../lib/ticks';
import type { TicketDraft } from '../../stores/trading';
import { ackText } from '../../services/trade';
import { Field } from '../../ui/Field';
import { InlineError } from '../../ui/States';
import { runCommand } from '../../lib/commands';
import { fieldKey, MODE_LABEL, type DEFAULT_LOCAL_OPTS, type OrderMode, type TriggerSource } from './ticket-modes';

type SetDraft = (patch: Partial<TicketDraft>) => void;
type LocalOpts = typeof DEFAULT_LOCAL_OPTS;

export function SideToggle({ side, setDraft }: { side: TicketDraft['side']; setDraft: SetDraft }) {
  return (
    <>
      <div className="side-toggle" role="group" aria-label="Side">
        <button type="button" className="buy" aria-pressed={side === 'bid'} onClick={() => setDraft({ side: 'bid' })}>
          ▲ Buy YES (bid)
        </button>
        <button type="button" className="sell" aria-pressed={side === 'ask'} onClick={() => setDraft({ side: 'ask' })}>
          ▼ Sell YES (ask)
        </button>
      </div>
      <div className="dim u-fs-11">
        {side === 'bid' ? 'Buys YES at the price; pays $1 a contract if YES settles.' : 'Sells YES at the price, the same as buying NO at 1 − price.'}
      </div>
    </>
  );
}

export function OrderTypeRow({ mode, setMode, localOpts, setLocalOpts }: { mode: OrderMode; setMode: (m: OrderMode) => void; localOpts: LocalOpts; setLocalOpts: (o: LocalOpts) => void }) {
  const isLocal = mode !== 'limit';
  return (
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
  );
}

export interface PriceCountRowProps {
  ticker: string;
  mode: OrderMode;
  draft: TicketDraft;
  setDraft: SetDraft;
  check: TicketCheck;
  showPriceError: boolean;
  touched: boolean;
  priceRef: RefObject<HTMLInputElement | null>;
  countRef: RefObject<HTMLInputElement | null>;
}

export function PriceCountRow({ ticker, mode, draft, setDraft, check, showPriceError, touched, priceRef, countRef }: PriceCountRowProps) {
  return (
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
      <Field label="Count (contracts)" hint="one size, shared with the ladder's Size" error={touched && !check.count.ok ? check.count.message : draft.count && !check.count.ok ? check.count.message : undefined}>
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
  );
}

/** Price from the inside market, and the size presets (keys 1-5). */
export function FillRow({ fillFrom, presets, count, setDraft }: { fillFrom: (which: 'bid' | 'ask') => void; presets: string[]; count: string; setDraft: SetDraft }) {
  return (
    <div className="row">
      <button type="button" className="btn btn-sm" onClick={() => fillFrom('bid')}>
        at bid
      </button>
      <button type="button" className="btn btn-sm" onClick={() => fillFrom('ask')}>
        at ask
      </button>
      <span className="grow" />
      {presets.map((p, i) => (
        <button key={`${p}-${i}`} type="button" className={`btn btn-sm${count === p ? ' btn-on' : ''}`} onClick={() => setDraft({ count: p })} title={`Size preset ${i + 1} (key ${i + 1})`}>
          {p}
        </button>
      ))}
    </div>
  );
}

/** The submit button, then the exchange's ack or the error. */
export function SubmitBar({ side, isLocal, disabled, text, ack, error }: { side: TicketDraft['side']; isLocal: boolean; disabled: boolean; text: string; ack: OrderAck | null; error: unknown }) {
  return (
    <>
      <div className="submit-bar">
        <button type="submit" className={`btn submit ${side === 'bid' ? 'btn-bid' : 'btn-ask'}${isLocal ? ' btn-local' : ''}`} disabled={disabled}>
          {text}
          <span className="kbd u-ml-6">
            Ctrl+Enter
          </span>
        </button>
      </div>
      {ack && error === null && (
        <div className="ack" role="status">
          Accepted: {ackText(ack)}
        </div>
      )}
      {error !== null && <InlineError error={error} />}
    </>
  );
}
