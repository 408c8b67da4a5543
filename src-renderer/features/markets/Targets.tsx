// Structured targets (teams, players, places that markets refer to).
import { useState } from 'react';
import type { StructuredTarget } from '../../../src-shared/wire/events';
import { useRest, useRestRows } from '../../hooks/useRest';
import { useDebounced } from '../../hooks/useDebounced';
import { fmtDateTime } from '../../lib/format';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { freeForm, KeyValues } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { QueryView } from '../../ui/States';
import { LoadMore } from '../../ui/LoadMore';

const columns: Columns<StructuredTarget> = [
  col<StructuredTarget>({ id: 'id', header: 'Id', size: 150, accessorFn: (t) => t.structured_target_id, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<StructuredTarget>({ id: 'name', header: 'Name', accessorFn: (t) => t.name ?? '' }),
  col<StructuredTarget>({ id: 'type', header: 'Type', size: 110, accessorFn: (t) => t.type ?? '' }),
  col<StructuredTarget>({ id: 'competition', header: 'Competition', size: 120, accessorFn: (t) => t.competition ?? '' }),
  col<StructuredTarget>({ id: 'updated', header: 'Updated', size: 118, accessorFn: (t) => t.last_updated_ts ?? 0, cell: ({ getValue }) => fmtDateTime((getValue() as number) || null) }),
];

function TargetDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useRest('getStructuredTarget', { params: { id } });
  return (
    <Modal open onClose={onClose} title={`Structured target ${id}`}>
      <QueryView query={q} loading="Loading the target…">
        {(d) =>
          d.structured_target ? (
            <KeyValues
              entries={[
                ['Name', d.structured_target.name ?? '—'],
                ['Type', d.structured_target.type ?? '—'],
                ['Competition', d.structured_target.competition ?? '—'],
                ['Source id', d.structured_target.source_id ?? '—'],
                ...Object.entries(d.structured_target.source_ids ?? {}).map(([k, v]): [string, string] => [`Source ${k}`, v]),
                ...Object.entries(d.structured_target.details ?? {}).map(([k, v]): [string, React.ReactNode] => [k, freeForm(v)]),
              ]}
            />
          ) : (
            <div className="state">The exchange has no target with this id.</div>
          )
        }
      </QueryView>
    </Modal>
  );
}

export function Targets() {
  const [type, setType] = useState('');
  const [competition, setCompetition] = useState('');
  const t = useDebounced(type.trim());
  const c = useDebounced(competition.trim());
  const { pages: pages, rows: rows } = useRestRows('getStructuredTargets', { query: { ...(t ? { type: t } : {}), ...(c ? { competition: c } : {}) } }, 'structured_targets', { pageSize: 500, sizeParam: 'page_size' });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <DataTable
        label="Structured targets"
        data={rows}
        columns={columns}
        getRowId={(r) => r.structured_target_id}
        {...queryState(pages)}
        loadingText="Loading structured targets…"
        emptyText="No structured targets match."
        onActivate={(r) => setOpen(r.structured_target_id)}
        tools={
          <>
            <input placeholder="Type" aria-label="Filter by type" value={type} onChange={(e) => setType(e.target.value)} className="u-w-110" />
            <input placeholder="Competition" aria-label="Filter by competition" value={competition} onChange={(e) => setCompetition(e.target.value)} className="u-w-130" />
          </>
        }
        footer={<LoadMore pages={pages} label="Load more" />}
      />
      {open && <TargetDetail id={open} onClose={() => setOpen(null)} />}
    </>
  );
}
