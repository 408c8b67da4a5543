// What the RFQ views share: quotes, acceptances and block trades go through main's risk gate
// (a confirmable refusal asks the trader), the blotters refresh together, and who I am.
import { useQueryClient } from '@tanstack/react-query';
import type { EndpointId } from '../../../src-shared/endpoints';
import { restAs, type RestCall, type RestResult } from '../../lib/rest';
import { withConfirmed, withRiskConfirm } from '../../services/trade';
import { useRest } from '../../hooks/useRest';
import { toastAction } from '../../hooks/useAction';
import { useConnection } from '../../stores/connection';

export const invalidateComms = (qc: ReturnType<typeof useQueryClient>) =>
  void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'rest' && ['getRfqs', 'getQuotes', 'getBlockTradeProposals'].includes(String(q.queryKey[1])) });

/** Quotes, acceptances and block trades go through main's risk gate; a confirmable refusal asks the trader. */
export async function exposure<K extends EndpointId>(what: string, id: K, ...a: RestCall<K>): Promise<RestResult<K>> {
  const r = await withRiskConfirm(what, (confirmed) => restAs(withConfirmed({ origin: 'rfq' as const }, confirmed), id, ...a));
  if (r === null) throw new Error('Not sent: kept back at the confirmation');
  return r;
}

export async function run(title: string, fn: () => Promise<unknown>, ok: string, qc: ReturnType<typeof useQueryClient>) {
  if (await toastAction(title, fn, ok)) invalidateComms(qc);
}

export function useMyId(): string | null {
  const fromConn = useConnection((s) => s.view?.userId ?? null);
  const q = useRest('getCommunicationsId', undefined, { enabled: !fromConn, staleTime: Infinity });
  return fromConn ?? q.data?.user_id ?? null;
}
