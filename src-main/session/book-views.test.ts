import { describe, expect, it } from 'vitest';
import { BookMachine } from '../market/books';
import { BookViews } from './book-views';
import { BOOK_DEPTH } from '../../src-shared/ipc/book-stream';

function machineWith(ticker: string, yes: [string, string][], no: [string, string][]): BookMachine {
  const m = new BookMachine();
  m.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
  m.handle({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: ticker, yes_dollars_fp: yes, no_dollars_fp: no } });
  return m;
}

describe('the books as the page and the gate read them', () => {
  it('gives the inside market in dollars: a NO bid at 0.40 is a YES ask at 0.60', () => {
    const v = new BookViews(machineWith('KX', [['0.5500', '3.00']], [['0.4000', '2.00']]));
    const top = v.top('KX')!;
    expect(top.stale).toBe(false);
    expect(top.yesBid?.toString()).toBe('0.55');
    expect(top.yesAsk?.toString()).toBe('0.6');
    expect(v.top('NONE')).toBeUndefined();
  });

  it('gives no price for an empty side', () => {
    const top = new BookViews(machineWith('KX', [['0.5500', '3.00']], [])).top('KX')!;
    expect(top.yesAsk).toBeNull();
    expect(top.yesBid?.toString()).toBe('0.55');
  });

  it('bumps the version of a market on every view, and leaves out markets it does not hold', () => {
    const v = new BookViews(machineWith('KX', [['0.5500', '3.00']], [['0.4000', '2.00']]));
    expect(v.view('KX')!.version).toBe(1);
    const views = v.views(['KX', 'NONE']);
    expect(views.map((x) => [x.ticker, x.version])).toEqual([['KX', 2]]);
    expect(views[0]!.yesBids.length).toBeGreaterThan(0);
  });

  it(`shows at most ${BOOK_DEPTH} levels a side`, () => {
    const yes = Array.from({ length: BOOK_DEPTH + 5 }, (_, i): [string, string] => [`0.${String(10 + i).padStart(2, '0')}00`, '1.00']);
    const view = new BookViews(machineWith('KX', yes, [])).view('KX')!;
    expect(view.yesBids.length).toBe(BOOK_DEPTH * 2);
  });
});
