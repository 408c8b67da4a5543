// FIX & drop copy: turn order entry over FIX and the drop copy on or off for the active profile
// (saved in main, which holds the key and signs the Logon), each session's state, and the orders
// the drop copy and the terminal disagree on. Main decides and compares; this panel shows and asks.
import { useEffect, useState } from 'react';
import type { FixSettings, FixView } from '../../../src-shared/ipc/fix';
import { getTerminalApi } from '../../lib/bridge';
import { fmtDateTime } from '../../lib/format';
import { notify } from '../../stores/notices';
import { setFixView, useFix } from '../../stores/fix';
import { Empty, InlineError, Loading } from '../../ui/States';

const PHASE: Record<string, string> = { up: 'logged on', connecting: 'connecting…', down: 'down', stopped: 'stopped' };
const dot = (phase: string | undefined) => (phase === 'up' ? 'dot dot-ok' : phase === 'connecting' ? 'dot dot-warn' : 'dot dot-error');

function SessionLine({ label, s }: { label: string; s: { phase: string; detail: string; endpoint: string } | null }) {
  return (
    <div className="row" role="status" aria-label={`${label} session`}>
      <span className={s ? dot(s.phase) : 'dot'} aria-hidden="true" />
      <strong>{label}</strong>
      {s ? (
        <span>
          {PHASE[s.phase] ?? s.phase} <span className="dim">{s.endpoint}</span>
          {s.phase !== 'up' && s.detail ? <span className="dim">: {s.detail}</span> : null}
        </span>
      ) : (
        <span className="dim">off</span>
      )}
    </div>
  );
}

function Settings({ view }: { view: FixView }) {
  const [draft, setDraft] = useState<FixSettings>(view.settings ?? { orderEntry: false, dropCopy: false });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setDraft(view.settings ?? { orderEntry: false, dropCopy: false }), [view.settings]);
  const changed = draft.orderEntry !== (view.settings?.orderEntry ?? false) || draft.dropCopy !== (view.settings?.dropCopy ?? false);
  const save = async () => {
    if (!view.profileId) return;
    setBusy(true);
    setError(null);
    try {
      const next = await getTerminalApi().saveFixSettings({ profileId: view.profileId, settings: { orderEntry: draft.orderEntry, dropCopy: draft.dropCopy, ...(view.settings?.port !== undefined ? { port: view.settings.port } : {}) } });
      setFixView(next);
      notify('success', 'FIX settings saved', next.settings?.orderEntry ? 'Orders go over FIX while its session is up, over REST otherwise.' : 'Orders go over REST.');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="col"
      aria-label="FIX settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="check">
        <input type="checkbox" checked={draft.orderEntry} onChange={(e) => setDraft({ ...draft, orderEntry: e.target.checked })} />
        Route order entry over FIX (REST when the session is down)
      </label>
      <label className="check">
        <input type="checkbox" checked={draft.dropCopy} onChange={(e) => setDraft({ ...draft, dropCopy: e.target.checked })} />
        Drop copy: compare the exchange&apos;s copy of my orders with the terminal&apos;s
      </label>
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={!changed || busy}>
          {busy ? 'Saving…' : 'Save FIX settings'}
        </button>
        <InlineError error={error} />
      </div>
    </form>
  );
}

function Disagreements({ dc }: { dc: NonNullable<FixView['dropCopy']> }) {
  if (dc.phase !== 'up' && dc.checkedAt === null) return <Loading text="Waiting for the drop copy to log on…" />;
  if (dc.disagreements.length === 0) {
    return <Empty>{dc.checkedAt === null ? 'Not compared yet.' : `No disagreement: ${dc.orders} order(s) reported by the drop copy match the terminal (checked ${fmtDateTime(dc.checkedAt)}).`}</Empty>;
  }
  return (
    <table className="grid" aria-label="Drop-copy disagreements">
      <thead>
        <tr>
          <th>Order</th>
          <th>Market</th>
          <th>Drop copy says</th>
          <th>Terminal holds</th>
          <th>Since</th>
        </tr>
      </thead>
      <tbody>
        {dc.disagreements.map((d) => (
          <tr key={d.orderId} data-order={d.orderId}>
            <td className="mono">{d.orderId}</td>
            <td>{d.ticker}</td>
            <td>{d.dropCopy}</td>
            <td className="neg">{d.terminal}</td>
            <td>{fmtDateTime(d.since)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FixPanel() {
  const view = useFix((s) => s.view);
  if (!view) return <Loading text="Loading the FIX sessions…" />;
  if (!view.profileId) return <Empty>No active profile: choose one in Account.</Empty>;
  return (
    <div className="panel col" data-testid="fix-panel">
      {view.unavailable ? <div className="dim" role="note">{view.unavailable}</div> : <Settings view={view} />}
      <SessionLine label="Order entry" s={view.orderEntry} />
      <SessionLine label="Drop copy" s={view.dropCopy} />
      <section className="section" aria-label="Drop copy disagreements">
        <h3>Drop copy vs. terminal</h3>
        {view.dropCopy ? <Disagreements dc={view.dropCopy} /> : <Empty>The drop copy is off for this profile.</Empty>}
      </section>
    </div>
  );
}
