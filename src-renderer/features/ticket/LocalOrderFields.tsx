// The local order's own fields: trail (trailing stop), target and stop (bracket), and how many
// ticks through the market the triggered order is sent.
import { Field } from '../../ui/Field';
import { intOf, ticksThrough, type LocalOpts, type OrderMode } from './ticket-modes';

export function LocalOrderFields({ mode, opts, onChange, hint }: { mode: OrderMode; opts: LocalOpts; onChange: (o: LocalOpts) => void; hint: { target: string; stop: string } | null }) {
  const ticks = (key: 'trail' | 'target' | 'stop', label: string, aria: string, fieldHint?: string) => (
    <Field label={label} hint={fieldHint}>
      <input className="num" inputMode="numeric" value={opts[key]} onChange={(e) => onChange({ ...opts, [key]: e.target.value })} aria-label={aria} aria-invalid={intOf(opts[key], 1, 5000) === null} />
    </Field>
  );
  return (
    <div className="form-grid u-gtc-1fr-1fr-1fr">
      {mode === 'trailing_stop' && ticks('trail', 'Trail (ticks)', 'Trail ticks')}
      {mode === 'bracket' && (
        <>
          {ticks('target', 'Target (ticks away)', 'Target ticks', hint?.target)}
          {ticks('stop', 'Stop (ticks away)', 'Stop ticks', hint?.stop)}
        </>
      )}
      <Field label="Ticks through" hint="sent this far through the market" error={ticksThrough(opts) === null ? '0 to 100 ticks' : undefined}>
        <input className="num" inputMode="numeric" value={opts.through} onChange={(e) => onChange({ ...opts, through: e.target.value })} aria-label="Ticks through" />
      </Field>
    </div>
  );
}
