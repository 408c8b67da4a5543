// What the trader does to a ladder beyond its rows' keys: re-centre, flip the view, and the keymap's
// commands (C and V act on the ladder last focused or touched; Alt+[ / Alt+] improve), plus the
// rows' click and wheel.
import { useCallback, type Dispatch, type MouseEvent, type MutableRefObject, type SetStateAction, type WheelEvent } from 'react';
import type { OrderOrigin } from '../../../src-shared/ipc/contract';
import { privateStore, restingOrdersIn } from '../../stores/private';
import { cancelOrders, placeAt } from '../../services/trade';
import { flip, improvePrice, orderForClick, shiftRows, topForCenter, type LadderModel, type Side, type TickGrid, type View } from './ladder-model';
import { ladderGrid } from './ladder-grid';
import { rowIndexOf, type useLadderOrders } from './useLadderInput';
import { useLadderCommands } from './useLadderCommands';

export interface LadderActionsInput {
  ticker: string | null;
  view: View;
  setView: (v: View) => void;
  step: number;
  grid: TickGrid | undefined;
  top: number | null;
  setTop: Dispatch<SetStateAction<number | null>>;
  rowCount: number;
  setFollow: Dispatch<SetStateAction<boolean>>;
  schedule: () => void;
  model: MutableRefObject<LadderModel | null>;
  improveBy: number;
  /** a size typed but not yet set with Enter: no order goes out at the old size */
  blocksOrders: () => boolean;
}

export function useLadderActions({ ticker, view, setView, step, grid, top, setTop, rowCount, setFollow, schedule, model, improveBy, blocksOrders }: LadderActionsInput) {
  const center = useCallback(() => {
    setFollow(true);
    setTop(null);
    schedule();
  }, [schedule, setFollow, setTop]);
  const toggleFollow = () => {
    setFollow((f) => !f);
    schedule();
  };
  // C and V act on the ladder the trader last focused or touched (several may be open)
  // Alt+[ / Alt+]: `improveBy` rows better than the painted inside (the price the ladder shows), never crossing
  const improve = (side: Side, origin: OrderOrigin) => {
    const m = model.current;
    if (!ticker || !m || blocksOrders()) return;
    const price = improvePrice(m.bestBid, m.bestAsk, side, improveBy, step, grid);
    if (price === null) return;
    const o = orderForClick(view, side, price);
    void placeAt(ticker, o.side, o.priceTicks, undefined, origin).catch(() => undefined);
  };
  const cancelSide = (side: Side, origin: OrderOrigin) => {
    if (!ticker) return;
    const yesSide = view === 'yes' ? side : flip(side);
    const mine = restingOrdersIn(privateStore.getState(), ticker).filter((o) => o.side === yesSide);
    if (mine.length) void cancelOrders(mine, origin);
  };
  const claim = useLadderCommands({ center, toggleView: () => setView(view === 'yes' ? 'no' : 'yes'), improve, cancelSide });

  const toggleView = (v: View) => {
    if (v === view) return;
    // keep the same prices on screen: mirror the window
    if (top !== null) setTop(topForCenter(10_000 - shiftRows(top, -Math.floor(rowCount / 2), step, grid), step, rowCount, ladderGrid(ticker, v)));
    setView(v);
  };
  return { center, toggleFollow, claim, toggleView };
}

export interface LadderPointerInput {
  top: number | null;
  step: number;
  grid: TickGrid | undefined;
  scrollTo: Dispatch<SetStateAction<number | null>>;
  setCursor: Dispatch<SetStateAction<number | null>>;
  dragRef: MutableRefObject<{ moved: boolean } | null>;
  ordersAt: ReturnType<typeof useLadderOrders>['ordersAt'];
  place: (side: Side, row: number) => void;
}

/** The rows' click (bid, offer, or cancel my orders at a row) and wheel (scroll three rows). */
export function ladderPointer({ top, step, grid, scrollTo, setCursor, dragRef, ordersAt, place }: LadderPointerInput) {
  const onClick = (e: MouseEvent) => {
    const cell = (e.target as HTMLElement).closest('[data-cell]') as HTMLElement | null;
    const i = rowIndexOf(e.target);
    if (!cell || i === null || dragRef.current?.moved) return;
    if ((e.target as HTMLElement).closest('.ladder-local')) return; // a local mark is dragged, never clicked through
    setCursor(i);
    const kind = cell.dataset.cell;
    if (kind === 'mybid' || kind === 'myask') {
      const side: Side = kind === 'mybid' ? 'bid' : 'ask';
      const mine = ordersAt(i, side);
      if (mine.length) void cancelOrders(mine, 'ladder');
      else place(side, i);
    } else if (kind === 'bid' || kind === 'ask') place(kind, i);
  };

  const onWheel = (e: WheelEvent) => {
    if (top === null) return;
    const rows = Math.sign(e.deltaY) * 3;
    scrollTo(shiftRows(top, -rows, step, grid));
  };
  return { onClick, onWheel };
}
