// Account, Exchange keys: the keys the exchange knows for this account; revoking one goes
// through main (revokeExchangeKey), which keeps private keys out of the page.
import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '../../../src-shared/wire/api-keys';
import { getTerminalApi } from '../../lib/bridge';
import { errorText } from '../../lib/errors';
import { fmtDateTime } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';

const keyColumns = (onDelete: (k: ApiKey) => void): Columns<ApiKey> => [
  col<ApiKey>({ id: 'id', header: 'Key id', size: 220, accessorFn: (k) => k.api_key, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<ApiKey>({ id: 'name', header: 'Name', accessorFn: (k) => k.name }),
  col<ApiKey>({ id: 'scopes', header: 'Scopes', size: 130, accessorFn: (k) => k.scopes.join(' ') }),
  col<ApiKey>({ id: 'sub', header: 'Subaccount', size: 80, accessorFn: (k) => k.subaccount ?? '', meta: { num: true } }),
  col<ApiKey>({ id: 'created', header: 'Created', size: 118, accessorFn: (k) => k.created_ts ?? 0, cell: ({ getValue }) => fmtDateTime((getValue() as number) || null) }),
  col<ApiKey>({
    id: '_actions',
    header: '',
    size: 70,
    enableSorting: false,
    cell: ({ row }) => (
      <button type="button" className="btn btn-sm btn-danger" onClick={() => onDelete(row.original)}>
        Revoke
      </button>
    ),
    meta: { csv: false },
  }),
];

export function ExchangeKeys() {
  const qc = useQueryClient();
  const q = useRest('getApiKeys');
  const columns = useMemo(
    () =>
      keyColumns((k) => {
        void confirmAction({ title: 'Revoke this key on the exchange?', body: `Requests signed with ${k.api_key} will be refused from now on.`, confirmLabel: 'Revoke', danger: true }).then(async (ok) => {
          if (!ok) return;
          try {
            await getTerminalApi().revokeExchangeKey(k.api_key);
            notify('success', `Revoked ${k.api_key}`);
            void qc.invalidateQueries({ queryKey: ['rest', 'getApiKeys'] });
          } catch (err) {
            notify('error', 'Could not revoke the key', errorText(err));
          }
        });
      }),
    [qc],
  );
  return (
    <DataTable
      label="API keys on the exchange"
      data={q.data?.api_keys ?? []}
      columns={columns}
      getRowId={(k) => k.api_key}
      {...queryState(q)}
      loadingText="Loading API keys…"
      emptyText="The exchange lists no API keys for this account."
      tools={<span className="dim">The keys the exchange knows for this account; the terminal's own keys are under Profiles.</span>}
    />
  );
}
