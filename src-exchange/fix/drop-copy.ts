// Drop copy (KalshiDC, docs.kalshi.com/fix/drop-copy) and listener sessions
// (docs.kalshi.com/fix/listener-sessions): the account's execution reports however its orders
// were entered, from the acceptor's ExecHistory.
// - KalshiDC answers EventResendRequest (U1: 21001 BeginExecID, 21002 EndExecID optional) with the
//   reports in that range (new sequence numbers, the original ExecIDs), then EventResendComplete
//   (U2: 45 RefSeqNum); a range it cannot serve gets EventResendReject (U3: 45, 58 Text). It also
//   streams the reports live (as the embedded exchange always has), and takes no orders.
// - A listener (ListenerSession 20126=Y on KalshiNR/KalshiRT) streams the reports live and takes
//   no orders.
import type { FixMessage } from '../../src-shared/fix/codec';
import { renderEntry, type ExecEntry } from './exec-history';
import type { SessionApp, SessionLink } from './link';

const NO_ORDERS = new Set(['D', 'F', 'G']);

export class DropCopyApp implements SessionApp {
  private readonly unlisten: () => void;

  constructor(
    private readonly link: SessionLink,
    private readonly kind: 'drop copy' | 'listener',
  ) {
    link.history.enable(link.trader.userId);
    this.unlisten = link.history.listen((e) => {
      if (this.mine(e)) link.send('8', renderEntry(e, link.trader));
    });
  }

  private mine(e: ExecEntry): boolean {
    const t = this.link.trader;
    return e.userId === t.userId && (t.subaccount === null || e.subaccount === t.subaccount);
  }

  onMessage(m: FixMessage): boolean {
    if (NO_ORDERS.has(m.msgType)) {
      this.link.businessReject(m, `a ${this.kind} session takes no orders`, 3);
      return true;
    }
    if (m.msgType === 'U1' && this.kind === 'drop copy') {
      this.onEventResend(m);
      return true;
    }
    return false;
  }

  private onEventResend(m: FixMessage): void {
    const begin = m.get(21001);
    const reject = (text: string) =>
      this.link.send('U3', [
        [45, m.seqNum],
        [58, text],
      ]);
    if (!begin) return reject('BeginExecID (21001) is required');
    const got = this.link.history.range(this.link.trader.userId, begin, m.get(21002));
    if (typeof got === 'string') return reject(got);
    for (const e of got) if (this.mine(e)) this.link.send('8', renderEntry(e, this.link.trader));
    this.link.send('U2', [[45, m.seqNum]]);
  }

  onClose(): void {
    this.unlisten();
  }
}
