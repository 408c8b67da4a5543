// The blotter's two dialogs on a resting order: amend (price and total count) and decrease (by or to).
import { useState } from 'react';
import { Decimal } from '../../../src-shared/money';
import { useAction } from '../../hooks/useAction';
import { getTerminalApi } from '../../lib/bridge';
import { checkCountText, checkPriceText, wireCount, wirePrice } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { notify } from '../../stores/notices';
import type { OrderRow } from '../../stores/normalize';
import { amendOrderTo } from '../../services/trade';
import { Field } from '../../ui/Field';
import { FormDialog } from '../../ui/FormDialog';

export function AmendDialog({ order, onClose }: { order: OrderRow; onClose: () => void }) {
  const [price, setPrice] = useState(() => fmtPx(order.ticker, order.price));
  const [count, setCount] = useState(new Decimal(order.filled).add(order.remaining).toFixed(2));
  const { busy, error, run } = useAction();
  const p = checkPriceText(price);
  const c = checkCountText(count);
  // as it opens the dialog shows the order as it is: Enter (or Amend) does nothing until the trader changes something
  const changed = !!p.value && !!c.value && (!p.value.eq(order.price) || !c.value.eq(new Decimal(order.filled).add(order.remaining)));
  const submit = async () => {
    if (!p.value || !c.value || !changed) return;
    const [pv, cv] = [p.value, c.value];
    await run(async () => {
      if (!(await amendOrderTo(order, wirePrice(pv), wireCount(cv), 'blotter', `Amend ${order.order_id} to ${fmtCount(cv.toString())} @ ${fmtPx(order.ticker, pv)}`))) return;
      notify('success', `Amended ${order.order_id}`, `${fmtCount(cv.toString())} @ ${fmtPx(order.ticker, pv)}`);
      onClose();
    });
  };
  return (
    <FormDialog
      title={`Amend ${order.side === 'bid' ? 'buy' : 'sell'} ${order.ticker}`}
      onClose={onClose}
      onSubmit={() => void submit()}
      canSubmit={p.ok && c.ok && changed}
      busy={busy}
      confirmLabel="Amend"
      busyLabel="Amending…"
      confirmTitle={changed ? undefined : 'Change the price or the count first'}
      error={error}
    >
      <Field label="New YES price" error={p.ok ? undefined : p.message}>
        <input autoFocus className="num" value={price} onChange={(e) => setPrice(e.target.value)} aria-invalid={!p.ok} />
      </Field>
      <Field label="Total count (filled + remaining)" error={c.ok ? undefined : c.message} hint={`filled so far ${fmtCount(order.filled)}`}>
        <input className="num" value={count} onChange={(e) => setCount(e.target.value)} aria-invalid={!c.ok} />
      </Field>
    </FormDialog>
  );
}

export function DecreaseDialog({ order, onClose }: { order: OrderRow; onClose: () => void }) {
  const [mode, setMode] = useState<'by' | 'to'>('by');
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const check = mode === 'by' ? checkCountText(value) : value.trim() === '0' ? { ok: true, value: new Decimal(0) } : checkCountText(value);
  const tooMuch = check.value && (mode === 'by' ? check.value.gt(order.remaining) : check.value.gte(order.remaining));
  const submit = async () => {
    if (!check.ok || !check.value || tooMuch) return;
    const amount = wireCount(check.value);
    await run(async () => {
      await getTerminalApi().decreaseOrder({
        order_id: order.order_id,
        ticker: order.ticker,
        ...(mode === 'by' ? { reduce_by: amount } : { reduce_to: amount }),
        ...(order.subaccount ? { subaccount: order.subaccount } : {}),
      });
      notify('success', `Decreased ${order.order_id}`, mode === 'by' ? `by ${fmtCount(amount)}` : `to ${fmtCount(amount)}`);
      onClose();
    });
  };
  return (
    <FormDialog
      title={`Decrease ${order.ticker} (${fmtCount(order.remaining)} resting)`}
      onClose={onClose}
      onSubmit={() => void submit()}
      canSubmit={check.ok && !tooMuch}
      busy={busy}
      confirmLabel="Decrease"
      busyLabel="Decreasing…"
      error={error}
    >
      <div className="seg" role="group" aria-label="Decrease mode">
        <button type="button" aria-pressed={mode === 'by'} onClick={() => setMode('by')}>
          Reduce by
        </button>
        <button type="button" aria-pressed={mode === 'to'} onClick={() => setMode('to')}>
          Reduce to
        </button>
      </div>
      <Field label={mode === 'by' ? 'Contracts to take off' : 'Contracts to leave resting'} error={value && !check.ok ? check.message : tooMuch ? (mode === 'by' ? 'More than is resting: cancel instead' : 'Must be below what is resting') : undefined}>
        <input autoFocus className="num" value={value} onChange={(e) => setValue(e.target.value)} />
      </Field>
    </FormDialog>
  );
}
