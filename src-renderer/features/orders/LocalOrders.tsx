// The Local tab: conditional orders held by this terminal (stops, take-profits, trailing stops,
// brackets). They are not at the exchange: they work only while this terminal runs and is
// connected, and the tab says so. After a restart the trader chooses to keep them armed or
// disarm them; a missed trigger asks before it sends.
import { useMemo } from 'react';
import type { LocalOrderView } from '../../../src-shared/ipc/contract';
import { getTerminalApi } from '../../lib/bridge';
import { fmtCount, fmtTime } from '../../lib/format';
import { toastAction } from '../../hooks/useAction';
import { useConnection } from '../../stores/connection';
import { useTools, isLiveLocal } from '../../stores/tools';
import { useRisk } from '../../stores/risk';
import { heldByKind, heldText } from '../../stores/kill-release';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { fmtPx } from '../../lib/ticks';

const KIND: Record<LocalOrderView['kind'], string> = { stop: 'Stop', take_profit: 'Take profit', trailing_stop: 'Trailing stop', bracket_target: 'Bracket target' };

export function localLimitText(o: Pick<LocalOrderView, 'limit' | 'side' | 'ticker'>): string {
  return o.limit.kind === 'price' ? `limit ${fmtPx(o.ticker, o.limit.price)}` : `${o.limit.ticks} tick${o.limit.ticks === 1 ? '' : 's'} through the ${o.side === 'ask' ? 'bid' : 'ask'}`;
}

const act = (id: string, action: 'cancel' | 'fire' | 'arm') => toastAction(`Could not ${action} the local order`, () => getTerminalApi().localOrderAction({ id, action }));

/** Local orders the kill switch holds: engaged, they wait for its release; released, for the trader's choice. */
function KillHeldNote() {
  const held = heldText(heldByKind(useTools((s) => s.local)?.orders ?? []));
  const engaged = useRisk((s) => s.view?.killSwitch.engaged ?? false);
  if (!held) return null;
  const choose = (rearm: boolean) =>
    toastAction(`Could not ${rearm ? 'arm' : 'disarm'} them`, () => getTerminalApi().releaseKillHeldLocal({ rearm: rearm ? ['stop', 'take_profit', 'trailing_stop', 'bracket_target'] : [] }), rearm ? 'Local orders armed again' : 'Local orders disarmed');
  return (
    <div className="local-choice" role="alert">
      <span className="grow">
        Held by the kill switch: {held}. {engaged ? 'They do not fire while it is engaged; its release asks whether to arm them again.' : 'The kill switch is released: arm them again (a trigger passed meanwhile asks before sending) or disarm them?'}
      </span>
      {!engaged && (
        <>
          <button type="button" className="btn btn-sm" onClick={() => void choose(true)}>
            Re-arm all
          </button>
          <button type="button" className="btn btn-sm btn-danger" onClick={() => void choose(false)}>
            Disarm all
          </button>
        </>
      )}
    </div>
  );
}

export function LocalOrders() {
  const view = useTools((s) => s.local);
  const phase = useConnection((s) => s.view?.phase);
  const rows = useMemo(() => view?.orders ?? [], [view]);
  const columns = useMemo<Columns<LocalOrderView>>(
    () => [
      col<LocalOrderView>({ id: 'time', header: 'Set', size: 70, accessorFn: (o) => o.createdAt, cell: ({ getValue }) => fmtTime(getValue() as number) }),
      col<LocalOrderView>({ id: 'ticker', header: 'Market', size: 150, accessorFn: (o) => o.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<LocalOrderView>({ id: 'kind', header: 'Local', size: 96, accessorFn: (o) => KIND[o.kind], cell: ({ row }) => <span className="badge badge-local">{KIND[row.original.kind]}</span> }),
      col<LocalOrderView>({ id: 'side', header: 'Side', size: 58, accessorFn: (o) => o.side, cell: ({ row }) => (row.original.side === 'bid' ? <span className="bid-text">▲ Buy</span> : <span className="ask-text">▼ Sell</span>) }),
      col<LocalOrderView>({ id: 'count', header: 'Count', size: 54, accessorFn: (o) => o.count, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
      col<LocalOrderView>({
        id: 'trigger',
        header: 'Trigger',
        size: 110,
        accessorFn: (o) => o.trigger ?? '',
        cell: ({ row }) => (
          <span className="num">
            {row.original.kind === 'bracket_target' ? 'rests at ' : `${row.original.source} `}
            {fmtPx(row.original.ticker, row.original.trigger)}
            {row.original.trailTicks ? ` (trail ${row.original.trailTicks})` : ''}
          </span>
        ),
      }),
      col<LocalOrderView>({ id: 'sends', header: 'Sends', size: 130, accessorFn: (o) => localLimitText(o) }),
      col<LocalOrderView>({ id: 'state', header: 'State', size: 84, accessorFn: (o) => o.state, cell: ({ getValue }) => <span className={`badge local-${String(getValue())}`}>{String(getValue()).replace('_', ' ')}</span> }),
      col<LocalOrderView>({ id: 'oco', header: 'OCO', size: 46, accessorFn: (o) => (o.ocoGroup ? 'yes' : '') }),
      col<LocalOrderView>({ id: 'detail', header: 'Detail', size: 260, accessorFn: (o) => o.detail, cell: ({ getValue }) => <span className="dim">{String(getValue())}</span> }),
      col<LocalOrderView>({
        id: '_actions',
        header: '',
        size: 130,
        enableSorting: false,
        cell: ({ row }) => {
          const o = row.original;
          return (
            <>
              {o.state === 'missed' && (
                <button type="button" className="btn btn-sm btn-danger" onClick={() => void act(o.id, 'fire')} title="Its trigger passed while the terminal was down: send its order now">
                  Fire now
                </button>
              )}
              {(o.state === 'disarmed' || o.state === 'failed') && o.kind !== 'bracket_target' && (
                <button type="button" className="btn btn-sm" onClick={() => void act(o.id, 'arm')}>
                  Arm
                </button>
              )}
              {(isLiveLocal(o.state) || (o.kind === 'bracket_target' && o.state === 'sent')) && (
                <button type="button" className="btn btn-sm" onClick={() => void act(o.id, 'cancel')}>
                  Cancel
                </button>
              )}
            </>
          );
        },
        meta: { csv: false },
      }),
    ],
    [],
  );
  return (
    <div className="u-d-flex-fd-column u-h-100">
      <div className={`local-note${phase === 'live' ? '' : ' local-note-warn'}`} role="note">
        {phase === 'live'
          ? 'Local orders are held by this terminal, not the exchange: they fire only while it runs and is connected. Every order they send passes the risk gate.'
          : 'Not connected: local orders cannot fire until the stream is live again.'}
      </div>
      <KillHeldNote />
      {view?.awaitingChoice && (
        <div className="local-choice" role="alert">
          <span className="grow">Local orders were restored after a restart and are not armed. Keep them armed (a trigger passed meanwhile will ask before sending) or disarm them all?</span>
          <button type="button" className="btn btn-sm" onClick={() => void toastAction('Could not arm them', () => getTerminalApi().resumeLocalOrders({ keep: true }), 'Local orders armed')}>
            Keep armed
          </button>
          <button type="button" className="btn btn-sm btn-danger" onClick={() => void toastAction('Could not disarm them', () => getTerminalApi().resumeLocalOrders({ keep: false }), 'Local orders disarmed')}>
            Disarm all
          </button>
        </div>
      )}
      <DataTable
        label="Local orders"
        data={rows}
        columns={columns}
        getRowId={(o) => o.id}
        loading={view === null}
        loadingText="Loading local orders…"
        emptyText="No local orders. Set a stop, trailing stop or bracket from the order ticket, or drag one on the ladder."
        initialSorting={[{ id: 'time', desc: true }]}
        onDelete={(o) => isLiveLocal(o.state) && void act(o.id, 'cancel')}
      />
    </div>
  );
}
