// Take-profit and stop-loss on a position: two local orders joined one-cancels-the-other, each
// closing the whole position (a long YES sells, a short buys back). Held by this terminal: they
// fire only while it runs and is connected, and the dialog says so.
import { useState } from 'react';
import { Decimal } from '../../../src-shared/money';
import type { LocalOrderSpec } from '../../../src-shared/ipc/contract';
import { checkPriceText, wireCount, wirePrice } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { useAction } from '../../hooks/useAction';
import { placeLocal } from '../../services/trade';
import { Field } from '../../ui/Field';
import { FormDialog } from '../../ui/FormDialog';

export function ProtectDialog({ ticker, position, subaccount, onClose }: { ticker: string; position: string; subaccount?: number; onClose: () => void }) {
  const pos = new Decimal(position);
  const long = pos.gt(0);
  const exit: 'bid' | 'ask' = long ? 'ask' : 'bid';
  const [tp, setTp] = useState('');
  const [sl, setSl] = useState('');
  const [source, setSource] = useState<'last' | 'bid' | 'ask'>('last');
  const [through, setThrough] = useState('2');
  const { busy, error, run } = useAction();
  const tpc = tp.trim() ? checkPriceText(tp) : null;
  const slc = sl.trim() ? checkPriceText(sl) : null;
  const throughOk = /^\d{1,3}$/.test(through) && Number(through) <= 100;
  const ready = (tpc?.ok || slc?.ok) && (!tpc || tpc.ok) && (!slc || slc.ok) && throughOk;
  const submit = async () => {
    if (!ready) return;
    const common = { ticker, side: exit, count: wireCount(pos.abs()), source, limit: { kind: 'through' as const, ticks: Number(through) }, ...(subaccount ? { subaccount } : {}) };
    const orders: LocalOrderSpec[] = [];
    if (tpc?.value) orders.push({ kind: 'take_profit', trigger: wirePrice(tpc.value), ...common });
    if (slc?.value) orders.push({ kind: 'stop', trigger: wirePrice(slc.value), ...common });
    await run(async () => {
      const done = await placeLocal(`Local ${orders.length > 1 ? 'take-profit / stop-loss (OCO)' : orders[0]!.kind === 'stop' ? 'stop-loss' : 'take-profit'} on ${fmtCount(pos.abs())} ${long ? 'YES' : 'NO'} ${ticker}`, { orders, oco: orders.length > 1 });
      if (done) onClose();
    });
  };
  return (
    <FormDialog
      title={`Protect ${fmtCount(pos.abs())} ${long ? 'YES' : 'NO'} ${ticker}`}
      onClose={onClose}
      onSubmit={() => void submit()}
      canSubmit={!!ready}
      busy={busy}
      confirmLabel="Set (local)"
      busyLabel="Setting…"
      error={error}
    >
      <div className="dim u-fs-11">
        Held by this terminal, not the exchange: they fire only while it runs and is connected. Whichever fires first cancels the other. Each {long ? 'sells' : 'buys back'} the whole position through the risk gate.
      </div>
      <Field label={`Take profit: YES ${long ? 'rises' : 'falls'} to`} error={tpc && !tpc.ok ? tpc.message : undefined}>
        <input autoFocus className="num" value={tp} onChange={(e) => setTp(e.target.value)} placeholder={long ? '0.70' : '0.30'} aria-label="Take profit price" />
      </Field>
      <Field label={`Stop loss: YES ${long ? 'falls' : 'rises'} to`} error={slc && !slc.ok ? slc.message : undefined}>
        <input className="num" value={sl} onChange={(e) => setSl(e.target.value)} placeholder={long ? '0.40' : '0.60'} aria-label="Stop loss price" />
      </Field>
      <Field label="Watch">
        <select value={source} onChange={(e) => setSource(e.target.value as 'last' | 'bid' | 'ask')} aria-label="Trigger source">
          <option value="last">Last trade</option>
          <option value="bid">Best bid</option>
          <option value="ask">Best ask</option>
        </select>
      </Field>
      <Field label="Ticks through the market" error={throughOk ? undefined : '0 to 100'}>
        <input className="num" value={through} onChange={(e) => setThrough(e.target.value)} aria-label="Ticks through" />
      </Field>
    </FormDialog>
  );
}
