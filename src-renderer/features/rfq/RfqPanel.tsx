// RFQ blotter: requests for quote, quotes, and block trades; one file per view, the calls they
// share (the gated exposure calls, invalidation, my communications id) in rfq-actions.ts.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { usePrivate } from '../../stores/private';
import { TabbedPanel } from '../../ui/TabbedPanel';
import { RfqTable } from './RfqTab';
import { QuoteTable } from './QuotesTab';
import { BlockTrades } from './BlocksTab';
import { invalidateComms, useMyId } from './rfq-actions';

export function RfqPanel() {
  const qc = useQueryClient();
  const myId = useMyId();
  const commsVersion = usePrivate((s) => s.commsVersion);
  useEffect(() => {
    if (commsVersion) invalidateComms(qc);
  }, [commsVersion, qc]);
  return (
    <TabbedPanel
      label="RFQ views"
      tabs={[
        { id: 'rfqs', label: 'RFQs', render: () => <RfqTable myId={myId} /> },
        { id: 'quotes', label: 'Quotes', render: () => <QuoteTable /> },
        { id: 'blocks', label: 'Block trades', render: () => <BlockTrades myId={myId} /> },
      ]}
    />
  );
}
