// The communications domain module: RFQs, quotes and block trade proposals. Confirming a
// quote and the second acceptance of a proposal execute through the engine inside the same
// command, so the trade and the status change are one journal record.
import type { DomainModule } from '../state/domain';
import { applyRfqCommand, COMMS_DOMAIN, emptyComms, type CommsCommand, type CommsState } from '../state/comms';
import { applyProposalCommand } from '../state/comms-proposals';

export const commsModule: DomainModule<CommsState, CommsCommand> = {
  name: COMMS_DOMAIN,
  commandTypes: [
    'createRfq',
    'deleteRfq',
    'createQuote',
    'deleteQuote',
    'acceptQuote',
    'confirmQuote',
    'createBlockTradeProposal',
    'acceptBlockTradeProposal',
  ],
  empty: emptyComms,
  apply(state, cmd, ctx) {
    return cmd.type === 'createBlockTradeProposal' || cmd.type === 'acceptBlockTradeProposal'
      ? applyProposalCommand(state, cmd, ctx)
      : applyRfqCommand(state, cmd, ctx);
  },
};
