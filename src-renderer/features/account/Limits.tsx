// Account, Limits & volume: the API usage tier, rate limits and endpoint costs, volume goals.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EndpointCost } from '../../../src-shared/wire/account';
import { Decimal } from '../../../src-shared/money';
import { rest } from '../../lib/rest';
import { fmtCount, fmtDateTime, fmtInt } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { KeyValues } from '../../ui/Field';
import { InlineError, QueryView } from '../../ui/States';

const costColumns: Columns<EndpointCost> = [
  col<EndpointCost>({ id: 'method', header: 'Method', size: 70, accessorFn: (c) => c.method }),
  col<EndpointCost>({ id: 'path', header: 'Path', accessorFn: (c) => c.path, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<EndpointCost>({ id: 'cost', header: 'Tokens', size: 70, accessorFn: (c) => c.cost, meta: { num: true } }),
];

export function Limits() {
  const qc = useQueryClient();
  const limits = useRest('getAccountLimits');
  const costs = useRest('getEndpointCosts');
  const volume = useRest('getVolumeProgress');
  const upgrade = useMutation({
    mutationFn: () => rest('upgradeApiUsageLevel', { body: {} }),
    onSuccess: () => {
      notify('success', 'Usage level upgrade requested');
      void qc.invalidateQueries({ queryKey: ['rest', 'getAccountLimits'] });
      void qc.invalidateQueries({ queryKey: ['rest', 'getVolumeProgress'] });
    },
  });
  return (
    <div className="vsplit">
      <div className="section">
        <h3>Rate limits</h3>
        <QueryView query={limits} loading="Loading limits…">
          {(l) => (
            <KeyValues
              entries={[
                ['Usage tier', <strong key="t">{l.usage_tier}</strong>],
                ['Read bucket', `${fmtInt(l.read.bucket_capacity)} tokens, refills ${fmtInt(l.read.refill_rate)}/s`],
                ['Write bucket', `${fmtInt(l.write.bucket_capacity)} tokens, refills ${fmtInt(l.write.refill_rate)}/s`],
                ['Grants', l.grants.length ? l.grants.map((g) => `${g.exchange_instance}: ${g.level} (${g.source}${g.expires_ts ? `, until ${fmtDateTime(g.expires_ts)}` : ''})`).join('; ') : 'none'],
              ]}
            />
          )}
        </QueryView>
      </div>
      <div className="section">
        <h3>Volume progress</h3>
        <QueryView query={volume} loading="Loading volume progress…">
          {(v) =>
            v.volume_progress.length === 0 ? (
              <div className="dim">No volume recorded.</div>
            ) : (
              <div className="col">
                {v.volume_progress.map((s) => (
                  <div key={s.computed_ts}>
                    <div>
                      Trailing 30 days: <strong>{fmtCount(s.trailing_30d_volume_fp)}</strong> contracts <span className="dim">(as of {fmtDateTime(s.computed_ts)})</span>
                    </div>
                    {s.goals.map((g) => {
                      const goal = new Decimal(g.earn_volume_goal_fp);
                      const pct = goal.gt(0) ? Decimal.min(100, new Decimal(s.trailing_30d_volume_fp).div(goal).mul(100)).toFixed(0) : '100';
                      return (
                        <div key={g.level} className="row u-fw-nowrap">
                          <span className="u-w-90">{g.level}</span>
                          <div className="progress grow" role="progressbar" aria-valuenow={Number(pct)} aria-valuemin={0} aria-valuemax={100} aria-label={`Progress to ${g.level}`}>
                            <div style={{ width: `${pct}%` }} />
                          </div>
                          <span className="num dim u-w-200">
                            {pct}% of {fmtCount(g.earn_volume_goal_fp)} (keep {fmtCount(g.keep_volume_goal_fp)})
                          </span>
                        </div>
                      );
                    })}
                  </div>
                ))}
              </div>
            )
          }
        </QueryView>
        <div className="row u-mt-6">
          <button
            type="button"
            className="btn btn-sm"
            disabled={upgrade.isPending}
            onClick={() =>
              void confirmAction({ title: 'Upgrade the usage level?', body: 'Ask the exchange to move this account to the API usage level its volume has earned.', confirmLabel: 'Upgrade' }).then((ok) => ok && upgrade.mutate())
            }
          >
            Request upgrade
          </button>
          {upgrade.error ? <InlineError error={upgrade.error} /> : null}
        </div>
      </div>
      <div className="u-fx-1-1-auto-minh-160-d-flex">
        <DataTable
          label="Endpoint costs"
          data={costs.data?.endpoint_costs ?? []}
          columns={costColumns}
          getRowId={(c) => `${c.method} ${c.path}`}
          {...queryState(costs)}
          loadingText="Loading endpoint costs…"
          emptyText={costs.data ? `Every endpoint costs the default ${costs.data.default_cost} tokens.` : 'No endpoint costs.'}
          tools={costs.data ? <span className="dim">Default cost {costs.data.default_cost} tokens a request</span> : null}
        />
      </div>
    </div>
  );
}
