import { describe, expect, it } from 'vitest';
import type { BookView } from '../../../src-shared/ipc/contract';
import { avgRow, buildLadder, improvePrice, openPosition, clampTop, cumulative, depthAt, inferStep, midTicks, orderForClick, topForCenter, tradeRow, viewLevels, volumeAtPrice } from './ladder-model';

const book = (yesBids: number[], yesAsks: number[], stale = false): BookView => ({ ticker: 'T', stale, yesBids, yesAsks, version: 1 });

describe('ladder rows from a BookView', () => {
  const b = book([5300, 1000, 5200, 250], [5500, 700, 5600, 1200]);

  it('lays out rows top down on the step, with sizes, zones and the inside market', () => {
    const m = buildLadder(b, [], { view: 'yes', step: 100, top: 5700, rows: 6 });
    expect(m.rows.map((r) => r.price)).toEqual([5700, 5600, 5500, 5400, 5300, 5200]);
    expect(m.rows.map((r) => [r.bid, r.ask])).toEqual([[0, 0], [0, 1200], [0, 700], [0, 0], [1000, 0], [250, 0]]);
    expect(m.rows.map((r) => r.zone)).toEqual(['ask', 'ask', 'ask', 'spread', 'bid', 'bid']);
    expect(m.bestBid).toBe(5300);
    expect(m.bestAsk).toBe(5500);
    expect(m.rows.find((r) => r.isBestBid)?.price).toBe(5300);
    expect(m.rows.find((r) => r.isBestAsk)?.price).toBe(5500);
    expect(m.maxSize).toBe(1200);
  });

  it('mirrors the NO view: a NO bid is a YES ask at 1 - p and sides swap', () => {
    const { bids, asks } = viewLevels(b, 'no');
    expect(bids).toEqual([[4500, 700], [4400, 1200]]);
    expect(asks).toEqual([[4700, 1000], [4800, 250]]);
    const m = buildLadder(b, [], { view: 'no', step: 100, top: 4800, rows: 5 });
    expect(m.bestBid).toBe(4500);
    expect(m.bestAsk).toBe(4700);
    expect(m.rows.map((r) => [r.price, r.bid, r.ask])).toEqual([[4800, 0, 250], [4700, 0, 1000], [4600, 0, 0], [4500, 700, 0], [4400, 1200, 0]]);
  });

  it('places my resting orders at their rows in either view', () => {
    const mine = [
      { order_id: 'o1', side: 'bid' as const, priceTicks: 5300, remainingCenti: 500 },
      { order_id: 'o2', side: 'bid' as const, priceTicks: 5300, remainingCenti: 100 },
      { order_id: 'o3', side: 'ask' as const, priceTicks: 5600, remainingCenti: 200 },
    ];
    const yes = buildLadder(b, mine, { view: 'yes', step: 100, top: 5600, rows: 4 });
    expect(yes.rows.find((r) => r.price === 5300)).toMatchObject({ myBid: 600, myBidIds: ['o1', 'o2'], myAsk: 0 });
    expect(yes.rows.find((r) => r.price === 5600)).toMatchObject({ myAsk: 200, myAskIds: ['o3'] });
    const no = buildLadder(b, mine, { view: 'no', step: 100, top: 4800, rows: 5 });
    expect(no.rows.find((r) => r.price === 4700)).toMatchObject({ myAsk: 600, myAskIds: ['o1', 'o2'] });
    expect(no.rows.find((r) => r.price === 4400)).toMatchObject({ myBid: 200, myBidIds: ['o3'] });
  });

  it('groups finer levels into coarser rows: bids down, asks up', () => {
    const fine = book([5312, 100, 5305, 50], [5388, 70]);
    expect(inferStep(fine)).toBe(1);
    const m = buildLadder(fine, [], { view: 'yes', step: 100, top: 5400, rows: 2 });
    expect(m.rows).toMatchObject([{ price: 5400, ask: 70 }, { price: 5300, bid: 150 }]);
  });

  it('infers the step from the prices present', () => {
    expect(inferStep(book([5300, 1], [5500, 1]))).toBe(100);
    expect(inferStep(book([5310, 1], []))).toBe(10);
    expect(inferStep(undefined)).toBe(100);
    expect(inferStep(book([5300, 1], [5510, 1]))).toBe(10);
    expect(inferStep(book([5300, 1, 5210, 1], [5501, 1]))).toBe(1);
    expect(inferStep(book([], []))).toBe(100);
  });

  it('finds the mid, or the one quoting side, or nothing', () => {
    expect(midTicks(b)).toBe(5400);
    expect(midTicks(book([5300, 1], []))).toBe(5300);
    expect(midTicks(book([], []))).toBeNull();
  });

  it('centers the window and keeps it inside the price range', () => {
    expect(topForCenter(5400, 100, 10)).toBe(5900);
    expect(topForCenter(9950, 100, 10)).toBe(9900);
    expect(topForCenter(100, 100, 10)).toBe(1000);
  });

  it('turns a click into a YES-leg order in either view', () => {
    expect(orderForClick('yes', 'bid', 5300)).toEqual({ side: 'bid', priceTicks: 5300 });
    expect(orderForClick('yes', 'ask', 5500)).toEqual({ side: 'ask', priceTicks: 5500 });
    expect(orderForClick('no', 'bid', 4500)).toEqual({ side: 'ask', priceTicks: 5500 });
    expect(orderForClick('no', 'ask', 4700)).toEqual({ side: 'bid', priceTicks: 5300 });
  });

  it('passes the stale flag through and tolerates a missing book', () => {
    expect(buildLadder(book([], [], true), [], { view: 'yes', step: 100, top: 5000, rows: 3 }).stale).toBe(true);
    const none = buildLadder(undefined, [], { view: 'yes', step: 100, top: 5000, rows: 3 });
    expect(none.rows.every((r) => r.zone === 'empty' && r.bid === 0)).toBe(true);
    expect(none.bestBid).toBeNull();
  });
});

describe('a scrolled window', () => {
  it('keeps every row a price inside (0, 1): paging past 0.99 or below 0.01 stops at the edge', () => {
    expect(clampTop(12_000, 100, 30)).toBe(9900);
    expect(clampTop(500, 100, 30)).toBe(3000);
    expect(clampTop(5000, 100, 30)).toBe(5000);
    expect(clampTop(9999, 1, 30)).toBe(9999);
    // a window taller than the range keeps its top at 0.99
    expect(clampTop(100, 100, 200)).toBe(9900);
  });
});

describe('ladder columns: cumulative depth, volume at price', () => {
  const b = book([5300, 1000, 5200, 250, 4000, 50], [5500, 700, 5600, 1200, 9000, 30]);

  it('sums depth from the inside outward, per side, counting levels off screen', () => {
    const m = buildLadder(b, [], { view: 'yes', step: 100, top: 5700, rows: 6 });
    expect(m.rows.map((r) => [r.price, r.cumBid, r.cumAsk])).toEqual([
      [5700, 0, 1900],
      [5600, 0, 1900],
      [5500, 0, 700],
      [5400, 0, 0],
      [5300, 1000, 0],
      [5200, 1250, 0],
    ]);
    const far = buildLadder(b, [], { view: 'yes', step: 100, top: 3900, rows: 1 });
    expect(far.rows[0]!.cumBid).toBe(1300);
  });

  it('sums depth in the NO view on the mirrored sides', () => {
    const m = buildLadder(b, [], { view: 'no', step: 100, top: 4800, rows: 5 });
    expect(m.rows.map((r) => [r.price, r.cumBid, r.cumAsk])).toEqual([
      [4800, 0, 1250],
      [4700, 0, 1000],
      [4600, 0, 0],
      [4500, 700, 0],
      [4400, 1900, 0],
    ]);
  });

  it('cumulative and depthAt: the running total at a price between levels is the better ones', () => {
    const cum = cumulative(new Map([[10, 1], [30, 2], [20, 4]]), 'bid');
    expect(cum).toEqual([[30, 2], [20, 6], [10, 7]]);
    expect(depthAt(cum, 25, 'bid')).toBe(2);
    expect(depthAt(cum, 31, 'bid')).toBe(0);
    expect(depthAt(cum, 5, 'bid')).toBe(7);
    const asks = cumulative(new Map([[10, 1], [30, 2]]), 'ask');
    expect(depthAt(asks, 20, 'ask')).toBe(1);
  });

  it('adds trades up per row price, in the view terms and on the step', () => {
    const trades = [{ yesTicks: 5300, centi: 100 }, { yesTicks: 5350, centi: 250 }, { yesTicks: 5400, centi: 5 }];
    expect([...volumeAtPrice(trades, 'yes', 100)]).toEqual([[5300, 350], [5400, 5]]);
    expect([...volumeAtPrice(trades, 'yes', 10)]).toEqual([[5300, 100], [5350, 250], [5400, 5]]);
    expect([...volumeAtPrice(trades, 'no', 100)]).toEqual([[4700, 100], [4600, 255]]);
    expect(tradeRow({ yesTicks: 5350, centi: 1 }, 'no', 100)).toBe(4600);
  });
});

describe('open position on the ladder: average open price and open P&L', () => {
  it('a YES position: average is cost per contract, P&L is value at the mid minus cost', () => {
    const o = openPosition('10.00', '4.5000', 5000);
    expect(o).toEqual({ avgYesTicks: 4500, avgYes: '0.4500', pnl: '0.5000' });
  });

  it('a NO position: the YES-terms average is 1 - cost per contract; it gains as YES falls', () => {
    const o = openPosition('-4.00', '1.2000', 6000);
    expect(o!.avgYes).toBe('0.7000');
    expect(o!.pnl).toBe('0.4000');
  });

  it('no P&L without a mark; nothing for a flat or unreadable position', () => {
    expect(openPosition('3.00', '1.0000', null)!.pnl).toBeNull();
    expect(openPosition('0.00', '0.0000', 5000)).toBeNull();
    expect(openPosition(undefined, '1', 5000)).toBeNull();
    expect(openPosition('x', '1', 5000)).toBeNull();
  });

  it('puts the average on the nearest row, in the view terms', () => {
    expect(avgRow(4533.33, 'yes', 100)).toBe(4500);
    expect(avgRow(4560, 'yes', 100)).toBe(4600);
    expect(avgRow(4533.33, 'no', 100)).toBe(5500);
    expect(avgRow(4533.33, 'yes', 10)).toBe(4530);
  });
});

describe('join and improve, never crossing', () => {
  it('improves a bid by n steps inside the spread and stops one step under the offer', () => {
    expect(improvePrice(4500, 4800, 'bid', 1, 100)).toBe(4600);
    expect(improvePrice(4500, 4800, 'bid', 5, 100)).toBe(4700);
    expect(improvePrice(4500, 4600, 'bid', 1, 100)).toBe(4500);
    expect(improvePrice(4500, 4800, 'bid', 0, 100)).toBe(4500);
    expect(improvePrice(null, 4800, 'bid', 1, 100)).toBeNull();
    expect(improvePrice(4500, null, 'bid', 1, 10)).toBe(4510);
  });

  it('improves an offer by n steps and stops one step over the bid', () => {
    expect(improvePrice(4500, 4800, 'ask', 1, 100)).toBe(4700);
    expect(improvePrice(4500, 4800, 'ask', 9, 100)).toBe(4600);
    expect(improvePrice(4500, 4600, 'ask', 1, 100)).toBe(4600);
    expect(improvePrice(4500, null, 'ask', 1, 100)).toBeNull();
    expect(improvePrice(null, 100, 'ask', 1, 100)).toBeNull();
  });
});
