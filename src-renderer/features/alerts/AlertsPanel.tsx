// Alerts: set, edit, silence and re-arm them, and see what fired. They live in main, which
// watches the markets and fires them with this panel (or every panel) closed: a native
// notification in Electron, a toast (and a chime if asked) in the browser. Each fires once per
// crossing; with re-arm it fires again after the value went back.
import { useEffect, useMemo, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import type { AlertCondition, AlertFiring, AlertInput, AlertView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { fmtDateTime, fmtTime, isoTime } from '../../lib/format';
import { toastAction, useAction } from '../../hooks/useAction';
import { usePanelTicker } from '../../hooks/useLink';
import { useTools } from '../../stores/tools';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { InlineError } from '../../ui/States';

type Kind = AlertCondition['kind'];
const KINDS: { id: Kind; label: string }[] = [
  { id: 'price', label: 'Price reaches a level' },
  { id: 'spread', label: 'Spread wider / narrower' },
  { id: 'volume', label: 'Volume over a window' },
  { id: 'lifecycle', label: 'Market opens / closes / settles' },
  { id: 'order', label: 'My order filled / canceled' },
];

interface FormState {
  id?: string;
  kind: Kind;
  ticker: string;
  source: 'last' | 'bid' | 'ask';
  direction: 'above' | 'below';
  level: string;
  spreadDirection: 'wider' | 'narrower';
  spread: string;
  contracts: string;
  windowSec: string;
  when: 'opened' | 'closed' | 'determined' | 'settled';
  orderWhen: 'filled' | 'canceled';
  onlyMarket: boolean;
  note: string;
  rearm: boolean;
  sound: boolean;
}

const blank = (ticker: string): FormState => ({
  kind: 'price',
  ticker,
  source: 'last',
  direction: 'above',
  level: '',
  spreadDirection: 'wider',
  spread: '0.05',
  contracts: '100',
  windowSec: '60',
  when: 'settled',
  orderWhen: 'filled',
  onlyMarket: false,
  note: '',
  rearm: false,
  sound: true,
});

function conditionOf(f: FormState): AlertCondition {
  const ticker = f.ticker.trim();
  switch (f.kind) {
    case 'price':
      return { kind: 'price', ticker, source: f.source, direction: f.direction, level: f.level.trim() };
    case 'spread':
      return { kind: 'spread', ticker, direction: f.spreadDirection, value: f.spread.trim() };
    case 'volume':
      return { kind: 'volume', ticker, contracts: f.contracts.trim(), windowSec: Number(f.windowSec) };
    case 'lifecycle':
      return { kind: 'lifecycle', ticker, when: f.when };
    case 'order':
      return { kind: 'order', when: f.orderWhen, ...(f.onlyMarket && ticker ? { ticker } : {}) };
  }
}

function formOf(a: AlertView): FormState {
  const c = a.condition;
  const f: FormState = { ...blank('ticker' in c ? (c.ticker ?? '') : ''), id: a.id, kind: c.kind, note: a.note, rearm: a.rearm, sound: a.sound };
  if (c.kind === 'price') Object.assign(f, { source: c.source, direction: c.direction, level: c.level });
  if (c.kind === 'spread') Object.assign(f, { spreadDirection: c.direction, spread: c.value });
  if (c.kind === 'volume') Object.assign(f, { contracts: c.contracts, windowSec: String(c.windowSec) });
  if (c.kind === 'lifecycle') f.when = c.when;
  if (c.kind === 'order') Object.assign(f, { orderWhen: c.when, onlyMarket: !!c.ticker });
  return f;
}

const act = (id: string, action: 'silence' | 'arm' | 'delete') => toastAction(`Could not ${action} the alert`, () => getTerminalApi().alertAction({ id, action }));

/** The alert list's columns; `edit` loads a row into the form. */
function alertColumns(edit: (a: AlertView) => void): Columns<AlertView> {
  return [
    col<AlertView>({ id: 'state', header: 'State', size: 70, accessorFn: (a) => a.state, cell: ({ getValue }) => <span className={`badge ${getValue() === 'armed' ? 'badge-ok' : getValue() === 'fired' ? 'badge-warn' : ''}`}>{String(getValue())}</span> }),
    // the whole width the other columns leave; its words wrap there (the stylesheet's
    // .alert-list rules), so the level at the end is never cut ("falls to 0....") nor under the
    // row's buttons, and a narrow panel still fits the table without scrolling it sideways
    col<AlertView>({ id: 'summary', header: 'Alert', accessorFn: (a) => a.summary, cell: ({ getValue }) => <span title={String(getValue())}>{String(getValue())}</span>, meta: { minWidth: 240 } }),
    // the row's actions in their own column next to its words, so Silence stays in view in a narrow panel
    col<AlertView>({
      id: '_actions',
      header: '',
      size: 170,
      enableSorting: false,
      cell: ({ row }) => {
        const a = row.original;
        return (
          <>
            {a.state === 'armed' ? (
              <button type="button" className="btn btn-sm" onClick={() => void act(a.id, 'silence')}>
                Silence
              </button>
            ) : (
              <button type="button" className="btn btn-sm" onClick={() => void act(a.id, 'arm')}>
                Re-arm
              </button>
            )}
            <button type="button" className="btn btn-sm" onClick={() => edit(a)}>
              Edit
            </button>
            <button type="button" className="btn btn-sm btn-danger" onClick={() => void act(a.id, 'delete')}>
              Delete
            </button>
          </>
        );
      },
      meta: { csv: false },
    }),
    col<AlertView>({ id: 'note', header: 'Note', size: 120, accessorFn: (a) => a.note, meta: { drop: 2 } }),
    col<AlertView>({ id: 'rearm', header: 'Re-arm', size: 56, accessorFn: (a) => (a.rearm ? 'yes' : ''), meta: { drop: 1 } }),
    col<AlertView>({ id: 'fired', header: 'Fired', size: 128, accessorFn: (a) => a.firedAt ?? 0, cell: ({ row }) => (row.original.firedAt ? `${row.original.fireCount}× · ${fmtTime(row.original.firedAt)}` : '—'), meta: { csv: (a) => (a.firedAt ? isoTime(a.firedAt) : ''), drop: 3 } }),
  ];
}

const historyColumns: Columns<AlertFiring> = [
  // "11/29/2026, 14:23" whole at 16 px text; the words share the rest and wrap (a fired alert's
  // title and what it saw are read whole, never cut at the panel's edge)
  col<AlertFiring>({ id: 'ts', header: 'Time', size: 160, accessorFn: (f) => f.ts, cell: ({ getValue }) => fmtDateTime(getValue() as number), meta: { csv: (f) => isoTime(f.ts) } }),
  col<AlertFiring>({ id: 'title', header: 'Alert', accessorFn: (f) => f.title, meta: { minWidth: 140 } }),
  col<AlertFiring>({ id: 'body', header: 'What', accessorFn: (f) => f.body, meta: { minWidth: 160 } }),
];

type SetForm = (patch: Partial<FormState>) => void;

/** The fields that belong to the chosen kind of alert. */
function AlertConditionFields({ form, set }: { form: FormState; set: SetForm }) {
  return (
    <>
      {form.kind === 'price' && (
        <>
          <Field label="Price">
            <select value={form.source} onChange={(e) => set({ source: e.target.value as FormState['source'] })} aria-label="Price source">
              <option value="last">Last trade</option>
              <option value="bid">Best bid</option>
              <option value="ask">Best ask</option>
            </select>
          </Field>
          <Field label="Fires when it" hint="exactly at the level counts">
            <select value={form.direction} onChange={(e) => set({ direction: e.target.value as FormState['direction'] })} aria-label="Direction">
              <option value="above">rises to it or above</option>
              <option value="below">falls to it or below</option>
            </select>
          </Field>
          <Field label="Level (YES, $)">
            <input className="num" inputMode="decimal" value={form.level} onChange={(e) => set({ level: e.target.value })} placeholder="0.55" aria-label="Level" />
          </Field>
        </>
      )}
      {form.kind === 'spread' && (
        <>
          <Field label="Spread">
            <select value={form.spreadDirection} onChange={(e) => set({ spreadDirection: e.target.value as FormState['spreadDirection'] })} aria-label="Spread direction">
              <option value="wider">wider than</option>
              <option value="narrower">narrower than</option>
            </select>
          </Field>
          <Field label="Value ($)">
            <input className="num" inputMode="decimal" value={form.spread} onChange={(e) => set({ spread: e.target.value })} aria-label="Spread value" />
          </Field>
        </>
      )}
      {form.kind === 'volume' && (
        <>
          <Field label="Contracts">
            <input className="num" inputMode="decimal" value={form.contracts} onChange={(e) => set({ contracts: e.target.value })} aria-label="Contracts" />
          </Field>
          <Field label="In (seconds)">
            <input className="num" inputMode="numeric" value={form.windowSec} onChange={(e) => set({ windowSec: e.target.value })} aria-label="Window seconds" />
          </Field>
        </>
      )}
      {form.kind === 'lifecycle' && (
        <Field label="Event">
          <select value={form.when} onChange={(e) => set({ when: e.target.value as FormState['when'] })} aria-label="Lifecycle event">
            <option value="opened">opens</option>
            <option value="closed">closes</option>
            <option value="determined">is determined</option>
            <option value="settled">settles</option>
          </select>
        </Field>
      )}
      {form.kind === 'order' && (
        <Field label="Event">
          <select value={form.orderWhen} onChange={(e) => set({ orderWhen: e.target.value as FormState['orderWhen'] })} aria-label="Order event">
            <option value="filled">filled</option>
            <option value="canceled">canceled</option>
          </select>
        </Field>
      )}
    </>
  );
}

/** The form that adds a new alert or saves the one being edited. */
function AlertForm({ form, setForm }: { form: FormState; setForm: Dispatch<SetStateAction<FormState>> }) {
  const { busy, error, run } = useAction();
  const set: SetForm = (patch) => setForm((f) => ({ ...f, ...patch }));
  const needsTicker = form.kind !== 'order' || form.onlyMarket;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const sent = form;
    const input: AlertInput = { ...(sent.id ? { id: sent.id } : {}), condition: conditionOf(sent), rearm: sent.rearm, sound: sent.sound, ...(sent.note.trim() ? { note: sent.note.trim() } : {}) };
    void run(async () => {
      await getTerminalApi().saveAlert(input);
      // the form starts over only if it still holds what was sent: the next alert typed while
      // this one was saving (its row can show before main's answer) is the trader's, kept
      setForm((f) => (f === sent ? blank(sent.ticker) : f));
    });
  };

  return (
    <form className="alert-form" onSubmit={submit} aria-label={form.id ? 'Edit alert' : 'New alert'}>
      <Field label="When">
        <select value={form.kind} onChange={(e) => set({ kind: e.target.value as Kind })} aria-label="Alert kind">
          {KINDS.map((k) => (
            <option key={k.id} value={k.id}>
              {k.label}
            </option>
          ))}
        </select>
      </Field>
      {form.kind === 'order' && (
        <label className="check u-as-end-h-22">
          <input type="checkbox" checked={form.onlyMarket} onChange={(e) => set({ onlyMarket: e.target.checked })} />
          Only one market
        </label>
      )}
      {needsTicker && (
        <Field label="Market">
          <input className="mono" value={form.ticker} onChange={(e) => set({ ticker: e.target.value })} placeholder="ticker" aria-label="Alert market" />
        </Field>
      )}
      <AlertConditionFields form={form} set={set} />
      <Field label="Note (optional)">
        <input value={form.note} onChange={(e) => set({ note: e.target.value })} maxLength={120} aria-label="Note" />
      </Field>
      <label className="check u-as-end-h-22" title="Fire again on the next crossing after the value went back">
        <input type="checkbox" checked={form.rearm} onChange={(e) => set({ rearm: e.target.checked })} />
        Re-arm
      </label>
      <label className="check u-as-end-h-22">
        <input type="checkbox" checked={form.sound} onChange={(e) => set({ sound: e.target.checked })} />
        Sound
      </label>
      <button type="submit" className="btn btn-sm btn-primary u-as-end" disabled={busy || (needsTicker && !form.ticker.trim())}>
        {busy ? 'Saving…' : form.id ? 'Save alert' : 'Add alert'}
      </button>
      {form.id && (
        <button type="button" className="btn btn-sm u-as-end" onClick={() => setForm(blank(form.ticker))}>
          Cancel edit
        </button>
      )}
      {error !== null && <InlineError error={error} />}
    </form>
  );
}

export function AlertsPanel() {
  const linked = usePanelTicker();
  const view = useTools((s) => s.alerts);
  const [form, setForm] = useState<FormState>(() => blank(linked ?? ''));
  // a new alert starts on the market the panel follows
  useEffect(() => {
    setForm((f) => (f.id || f.ticker ? f : { ...f, ticker: linked ?? '' }));
  }, [linked]);
  const columns = useMemo(() => alertColumns((a) => setForm(formOf(a))), []);

  return (
    <div className="panel alerts-panel" data-testid="alerts-panel">
      <AlertForm form={form} setForm={setForm} />
      <div className="alert-list">
        <DataTable label="Alerts" data={view?.alerts ?? []} columns={columns} getRowId={(a) => a.id} loading={view === null} loadingText="Loading alerts…" emptyText="No alerts. They fire here, as a notification, even with this panel closed." onActivate={(a) => setForm(formOf(a))} onDelete={(a) => void act(a.id, 'delete')} />
      </div>
      <div className="alert-history">
        <DataTable label="Alert history" data={view?.history ?? []} columns={historyColumns} getRowId={(f) => f.id} emptyText="Nothing has fired yet." initialSorting={[{ id: 'ts', desc: true }]} />
      </div>
    </div>
  );
}
