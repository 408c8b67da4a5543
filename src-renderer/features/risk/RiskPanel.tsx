// Risk & audit: the kill switch, today's P&L against the loss limit, the profile's pre-trade
// limits (edited here, enforced in main), and the order audit journal with filters and CSV.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_RISK_LIMITS, RiskLimits, type AuditEntry, type AuditFilter, type AuditOutcome } from '../../../src-shared/ipc/risk';
import { Decimal } from '../../../src-shared/money';
import { getTerminalApi } from '../../lib/bridge';
import { errorText } from '../../lib/errors';
import { fmtCash, fmtDateTime, fmtDateTimeMs, isoTime } from '../../lib/format';
import { notify } from '../../stores/notices';
import { useRisk, setRiskView } from '../../stores/risk';
import { useTools } from '../../stores/tools';
import { heldByKind, heldText } from '../../stores/kill-release';
import { engageKillSwitch, releaseKillSwitch } from '../../services/risk';
import { withConsoleCode } from '../../services/console-code';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/States';
import { TabbedPanel } from '../../ui/TabbedPanel';

export function RiskPanel() {
  return (
    <TabbedPanel
      label="Risk and audit"
      testId="risk-panel"
      tabs={[
        { id: 'limits', label: 'Limits & kill switch', render: () => <LimitsTab /> },
        { id: 'audit', label: 'Audit journal', render: () => <AuditTab /> },
      ]}
    />
  );
}

function KillSwitch() {
  const view = useRisk((s) => s.view);
  const ks = view?.killSwitch;
  const held = heldText(heldByKind(useTools((s) => s.local)?.orders ?? []));
  return (
    <section className="section" aria-label="Kill switch">
      <h3>Kill switch</h3>
      <div className="row">
        {ks?.engaged ? (
          <span className="badge badge-error" role="status">
            ENGAGED{ks.since ? ` since ${fmtDateTime(ks.since)}` : ''}
          </span>
        ) : (
          <span className="badge badge-ok" role="status">
            off
          </span>
        )}
        <span className="dim grow">
          {ks?.engaged
            ? `${ks.detail || 'New orders are refused.'}${held ? ` Local orders held: ${held}.` : ''}`
            : 'Engaging cancels every resting order in every subaccount, holds every local stop, take-profit and trailing stop, stops every strategy, and refuses new orders until released. It stays engaged across restarts.'}
        </span>
        {ks?.engaged ? (
          <button type="button" className="btn btn-sm" onClick={() => void releaseKillSwitch()}>
            Release…
          </button>
        ) : (
          <button type="button" className="btn btn-sm btn-danger" onClick={() => void engageKillSwitch()} disabled={!view?.profileId}>
            Engage kill switch
          </button>
        )}
      </div>
    </section>
  );
}

function DailyLoss() {
  const view = useRisk((s) => s.view);
  if (!view) return null;
  const pnl = view.dailyPnl === null ? null : new Decimal(view.dailyPnl);
  const limit = new Decimal(view.limits.maxDailyLoss);
  const used = pnl && pnl.lt(0) && limit.gt(0) ? Decimal.min(100, pnl.neg().div(limit).mul(100)).toNumber() : 0;
  return (
    <section className="section" aria-label="Today's P&L">
      <h3>Today (UTC)</h3>
      <div className="row">
        <span>
          P&amp;L <strong className={pnl ? (pnl.lt(0) ? 'neg' : pnl.gt(0) ? 'pos' : '') : ''}>{pnl ? fmtCash(pnl) : '—'}</strong>
        </span>
        <span className="dim" title="Cash of today's fills less fees, plus today's net contracts at the best bid (long) or ask (short), or at the market's result once settled; follows the books">realized plus marked to the books, of today&apos;s fills</span>
        <span className="grow" />
        <span title="Share of the daily loss limit used; past it only orders that reduce exposure go through">
          loss limit {fmtCash(limit)} · used {Math.round(used)}%
        </span>
        <span className={`meter${used > 75 ? ' low' : ''}`} role="meter" aria-label="Daily loss limit used" aria-valuenow={Math.round(used)} aria-valuemin={0} aria-valuemax={100}>
          <span style={{ width: `${used}%` }} />
        </span>
      </div>
    </section>
  );
}

type LimitKey = keyof RiskLimits;
interface LimitField {
  label: string;
  hint: string;
  int?: boolean;
}
/** One field per limit: a limit added to RiskLimits and missing here does not compile. In form order. */
const LIMIT_FIELDS: Record<LimitKey, LimitField> = {
  maxOrderContracts: { label: 'Max contracts / order', hint: 'one order’s count' },
  maxOrderCost: { label: 'Max cost / order ($)', hint: 'price × count (bid), (1 − price) × count (ask)' },
  priceCollar: { label: 'Price collar ($)', hint: 'how far through the opposite best price' },
  maxPositionContracts: { label: 'Max position / market', hint: 'contracts, with resting orders' },
  maxOpenOrders: { label: 'Max open orders', hint: 'all markets', int: true },
  maxOpenOrdersPerMarket: { label: 'Max open orders / market', hint: 'one market', int: true },
  maxDailyLoss: { label: 'Max loss today ($)', hint: 'then only reducing orders' },
  duplicateWindowMs: { label: 'Duplicate window (ms)', hint: 'same order again asks first', int: true },
  confirmAboveContracts: { label: 'Confirm above (contracts)', hint: 'asks before sending' },
  confirmAboveCost: { label: 'Confirm above ($)', hint: 'asks before sending' },
};
const LIMIT_KEYS = Object.keys(LIMIT_FIELDS) as LimitKey[];

type Texts = Record<LimitKey, string>;
const toTexts = (l: RiskLimits): Texts => Object.fromEntries(LIMIT_KEYS.map((k) => [k, String(l[k])])) as Texts;

function parseTexts(t: Texts): { limits: RiskLimits | null; errors: Partial<Record<LimitKey, string>> } {
  const candidate: Record<string, unknown> = {};
  for (const k of LIMIT_KEYS) {
    const v = t[k].trim().replace(/,/g, '');
    candidate[k] = LIMIT_FIELDS[k].int ? (/^\d+$/.test(v) ? Number(v) : v) : v;
  }
  const r = RiskLimits.safeParse(candidate);
  if (r.success) return { limits: r.data, errors: {} };
  const errors: Partial<Record<LimitKey, string>> = {};
  for (const issue of r.error.issues) {
    const k = issue.path[0] as LimitKey | undefined;
    if (k && !errors[k]) errors[k] = issue.message.startsWith('Invalid input') ? 'a whole number' : issue.message;
  }
  return { limits: null, errors };
}

function LimitsForm({ saved }: { saved: RiskLimits }) {
  const [texts, setTexts] = useState<Texts>(() => toTexts(saved));
  const [busy, setBusy] = useState(false);
  const { limits, errors } = parseTexts(texts);
  const dirty = LIMIT_KEYS.some((k) => texts[k] !== String(saved[k]));
  const save = async () => {
    if (!limits) return;
    setBusy(true);
    try {
      const api = getTerminalApi();
      const view = await withConsoleCode((code) => (code ? api.saveRiskLimits(limits, { consoleCode: code }) : api.saveRiskLimits(limits)));
      setRiskView(view);
      setTexts(toTexts(view.limits));
      notify('success', 'Risk limits saved', 'They apply to the next order from every panel and key.');
    } catch (err) {
      notify('error', 'Could not save the risk limits', errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="section" aria-label="Risk limits">
      <h3>Pre-trade limits (this profile)</h3>
      <form
        className="form-grid risk-limits"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {LIMIT_KEYS.map((k) => (
          <Field key={k} label={LIMIT_FIELDS[k].label} error={errors[k]} hint={`${LIMIT_FIELDS[k].hint}; default ${String(DEFAULT_RISK_LIMITS[k])}`}>
            <input className="num" name={k} aria-label={LIMIT_FIELDS[k].label} value={texts[k]} onChange={(e) => setTexts({ ...texts, [k]: e.target.value })} />
          </Field>
        ))}
        <div className="row u-gc-1-1">
          <button type="submit" className="btn btn-sm btn-primary" disabled={!limits || !dirty || busy}>
            {busy ? 'Saving…' : 'Save limits'}
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setTexts(toTexts(saved))} disabled={!dirty || busy}>
            Undo changes
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setTexts(toTexts(DEFAULT_RISK_LIMITS))} disabled={busy}>
            Defaults
          </button>
          <span className="dim">Main checks every order against these before it leaves; the renderer cannot skip them.</span>
        </div>
      </form>
    </section>
  );
}

function LimitsTab() {
  const view = useRisk((s) => s.view);
  if (!view) return <Loading text="Loading the risk limits…" />;
  return (
    <div className="panel-body">
      <KillSwitch />
      <DailyLoss />
      {view.profileId ? <LimitsForm key={`${view.profileId}:${JSON.stringify(view.limits)}`} saved={view.limits} /> : <div className="pad dim">No active profile: limits are kept per profile.</div>}
    </div>
  );
}

const OUTCOMES: AuditOutcome[] = ['ok', 'refused', 'error', 'sent'];
const AUDIT_ACTIONS = ['place', 'amend', 'decrease', 'cancel', 'batch_cancel', 'cancel_all', 'quote', 'accept_quote', 'confirm_quote', 'block_propose', 'block_accept', 'kill_engage', 'kill_release'];
type AuditRow = AuditEntry & { seq: number };

const auditColumns: Columns<AuditRow> = [
  col<AuditRow>({ id: 'time', header: 'Time', size: 176, accessorFn: (e) => e.ts, cell: ({ getValue }) => fmtDateTimeMs(getValue() as number), meta: { csv: (e) => isoTime(e.ts) } }),
  col<AuditRow>({ id: 'action', header: 'Action', size: 90, accessorFn: (e) => e.action }),
  // which surface sent it (a key, the palette, a button, a ladder click, a local order, a strategy with its id)
  col<AuditRow>({ id: 'origin', header: 'From', size: 90, accessorFn: (e) => (e.origin ? `${e.origin}${e.originId ? ` ${e.originId}` : ''}` : ''), cell: ({ row, getValue }) => <span title={row.original.originId ?? undefined}>{String(getValue())}</span> }),
  col<AuditRow>({ id: 'ticker', header: 'Market', size: 150, accessorFn: (e) => e.ticker ?? '', cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<AuditRow>({
    id: 'outcome',
    header: 'Outcome',
    size: 70,
    accessorFn: (e) => e.outcome,
    cell: ({ getValue }) => {
      const v = String(getValue());
      return <span className={`badge${v === 'ok' ? ' badge-ok' : v === 'refused' || v === 'error' ? ' badge-error' : ''}`}>{v}</span>;
    },
  }),
  col<AuditRow>({ id: 'gate', header: 'Gate', size: 150, accessorFn: (e) => e.gate }),
  col<AuditRow>({ id: 'answer', header: 'Answer', size: 320, accessorFn: (e) => e.answer, cell: ({ getValue }) => <span title={String(getValue())}>{String(getValue())}</span> }),
  col<AuditRow>({ id: 'latency', header: 'ms', size: 50, accessorFn: (e) => e.latencyMs ?? '', meta: { num: true } }),
  col<AuditRow>({ id: 'asked', header: 'Asked', size: 260, accessorFn: (e) => JSON.stringify(e.asked), cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
  col<AuditRow>({ id: 'coid', header: 'Client order id', accessorFn: (e) => e.clientOrderId ?? '', cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

function AuditTab() {
  const [ticker, setTicker] = useState('');
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState<AuditOutcome | ''>('');
  const profileId = useRisk((s) => s.view?.profileId ?? null);
  const filter = useMemo<AuditFilter>(() => {
    const f: AuditFilter = { limit: 2000 };
    const t = ticker.trim().toUpperCase();
    if (t) f.ticker = t;
    if (/^[a-z_]{1,30}$/.test(action)) f.action = action;
    if (outcome) f.outcome = outcome;
    return f;
  }, [ticker, action, outcome]);
  const q = useQuery({ queryKey: ['audit', profileId, filter], queryFn: () => getTerminalApi().getAuditLog(filter), refetchInterval: 2000 });
  const rows = useMemo<AuditRow[]>(() => (q.data ?? []).map((e, i, all) => ({ ...e, seq: all.length - i })), [q.data]);
  return (
    <>
      <div className="panel-bar">
        <input placeholder="Market" aria-label="Filter by market" value={ticker} onChange={(e) => setTicker(e.target.value)} className="u-w-150" />
        <select aria-label="Filter by action" value={action} onChange={(e) => setAction(e.target.value)}>
          <option value="">any action</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        <select aria-label="Filter by outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as AuditOutcome | '')}>
          <option value="">any outcome</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        <span className="dim">newest first; a local, append-only file per profile</span>
      </div>
      <div className="panel-body">
        <DataTable
          label="Order audit journal"
          data={rows}
          columns={auditColumns}
          getRowId={(e) => String(e.seq)}
          loading={q.isPending}
          loadingText="Reading the audit journal…"
          error={q.error}
          onRetry={() => void q.refetch()}
          emptyText={profileId ? 'No order actions recorded yet for this profile.' : 'No active profile.'}
          initialSorting={[{ id: 'time', desc: true }]}
          rowClassName={(e) => (e.outcome === 'refused' ? 'row-refused' : undefined)}
          csv
        />
      </div>
    </>
  );
}
