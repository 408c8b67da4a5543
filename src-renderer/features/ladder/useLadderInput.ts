// The ladder's hands: placing and canceling at a row, dragging my orders to another price, and
// the keyboard (arrows, pages, [ ], Delete, Shift+arrows to move orders, digits + Enter: size).
import { useRef, type Dispatch, type KeyboardEvent, type MutableRefObject, type PointerEvent as ReactPointerEvent, type RefObject, type SetStateAction } from 'react';
import { privateStore } from '../../stores/private';
import { amendPrice, cancelOrders, placeAt } from '../../services/trade';
import { orderForClick, shiftRows, type LadderModel, type Side, type TickGrid, type View } from './ladder-model';
import { ticksToDollars } from '../../../src-shared/money';
import { getTerminalApi } from '../../lib/bridge';
import { toastAction } from '../../hooks/useAction';

export const rowIndexOf = (el: EventTarget | null): number | null => {
  const rowEl = (el as HTMLElement | null)?.closest?.('[data-row]');
  return rowEl ? Number((rowEl as HTMLElement).dataset.row) : null;
};

/** Orders at a row of the last painted model: place there, find mine there, move mine elsewhere. */
export function useLadderOrders({ ticker, view, model }: { ticker: string | null; view: View; model: MutableRefObject<LadderModel | null> }) {
  const place = (viewSide: Side, rowIndex: number) => {
    const r = model.current?.rows[rowIndex];
    if (!r || !ticker) return;
    const o = orderForClick(view, viewSide, r.price);
    void placeAt(ticker, o.side, o.priceTicks).catch(() => undefined);
  };

  const ordersAt = (rowIndex: number, viewSide: Side | 'both') => {
    const r = model.current?.rows[rowIndex];
    if (!r) return [];
    const ids = viewSide === 'bid' ? r.myBidIds : viewSide === 'ask' ? r.myAskIds : [...r.myBidIds, ...r.myAskIds];
    const all = privateStore.getState().orders;
    return ids.map((id) => all[id]).filter((o): o is NonNullable<typeof o> => !!o);
  };

  const moveOrders = (fromRow: number, viewSide: Side | 'both', toRow: number) => {
    const target = model.current?.rows[toRow];
    if (!target || fromRow === toRow) return;
    const yesPrice = view === 'yes' ? target.price : 10_000 - target.price;
    for (const o of ordersAt(fromRow, viewSide)) void amendPrice(o, yesPrice);
  };

  const moveLocal = (id: string, toRow: number) => {
    const target = model.current?.rows[toRow];
    if (!target) return;
    const yesTicks = view === 'yes' ? target.price : 10_000 - target.price;
    void toastAction('Could not move the local order', () => getTerminalApi().moveLocalOrder({ id, trigger: ticksToDollars(yesTicks) }), `Local trigger moved to ${ticksToDollars(yesTicks)}`);
  };

  return { place, ordersAt, moveOrders, moveLocal };
}

/**
 * Dragging my orders from one row to another amends them to that price; dragging a local
 * order's mark moves its trigger there (main checks it is not already reached).
 */
export function useLadderDrag({ moveOrders, moveLocal, setDropRow, dropRef }: { moveOrders: (from: number, side: Side | 'both', to: number) => void; moveLocal: (id: string, to: number) => void; setDropRow: Dispatch<SetStateAction<number | null>>; dropRef: MutableRefObject<number | null> }) {
  const dragRef = useRef<{ from: number; side: Side; moved: boolean; localId?: string } | null>(null);
  const onPointerDown = (e: ReactPointerEvent) => {
    const i = rowIndexOf(e.target);
    if (i === null || e.button !== 0) return;
    const local = (e.target as HTMLElement).closest('.ladder-local') as HTMLElement | null;
    if (local?.dataset.localId) {
      dragRef.current = { from: i, side: 'bid', moved: false, localId: local.dataset.localId };
      return;
    }
    const mine = (e.target as HTMLElement).closest('.mine') as HTMLElement | null;
    if (!mine) return;
    dragRef.current = { from: i, side: mine.dataset.side === 'ask' ? 'ask' : 'bid', moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const i = rowIndexOf(el);
    if (i !== null && i !== d.from && !d.moved) {
      d.moved = true;
      // capture only once it is a drag: a plain click must still reach the cell (to cancel)
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    }
    if (d.moved) setDropRow(i);
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    const host = e.currentTarget as HTMLElement;
    if (host.hasPointerCapture?.(e.pointerId)) host.releasePointerCapture(e.pointerId);
    const to = dropRef.current;
    setDropRow(null);
    if (d.moved && to !== null) {
      if (d.localId) moveLocal(d.localId, to);
      else moveOrders(d.from, d.side, to);
    }
    // let the click that follows see `moved`, then forget the drag
    setTimeout(() => {
      dragRef.current = null;
    }, 0);
  };

  return { dragRef, onPointerDown, onPointerMove, onPointerUp };
}

export interface LadderKeysInput {
  rowsHost: RefObject<HTMLDivElement | null>;
  top: number | null;
  cursor: number | null;
  rowCount: number;
  step: number;
  /** the market's price grid (view terms): scrolls move by its rows */
  grid?: TickGrid | undefined;
  setTop: Dispatch<SetStateAction<number | null>>;
  setCursor: Dispatch<SetStateAction<number | null>>;
  place: (side: Side, row: number) => void;
  ordersAt: (row: number, side: Side | 'both') => ReturnType<typeof privateStore.getState>['orders'][string][];
  moveOrders: (from: number, side: Side | 'both', to: number) => void;
  /** the typed size's keys (digits, and Enter / Esc / Backspace while typing); true when it took the key */
  typedKey: (e: KeyboardEvent<HTMLDivElement>) => boolean;
}

/** The ladder's keys while its rows have focus. */
export function useLadderKeys({ rowsHost, top, cursor, rowCount, step, grid, setTop, setCursor, place, ordersAt, moveOrders, typedKey }: LadderKeysInput) {
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== rowsHost.current || top === null) return;
    // Alt/Ctrl/Cmd chords are the keymap's (Alt+[ improves the bid): never also a plain [ at the cursor
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (typedKey(e)) return;
    const cur = cursor ?? Math.floor(rowCount / 2);
    const moveCursor = (n: number) => {
      const next = cur + n;
      if (next < 0) setTop(shiftRows(top, -next, step, grid));
      else if (next >= rowCount) setTop(shiftRows(top, -(next - rowCount + 1), step, grid));
      setCursor(Math.max(0, Math.min(rowCount - 1, next)));
    };
    if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && e.shiftKey) {
      e.preventDefault();
      const dir = e.key === 'ArrowUp' ? -1 : 1;
      moveOrders(cur, 'both', cur + dir);
      moveCursor(dir);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      moveCursor(-1);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      moveCursor(1);
    } else if (e.key === 'PageUp') {
      e.preventDefault();
      setTop(shiftRows(top, Math.floor(rowCount / 2), step, grid));
    } else if (e.key === 'PageDown') {
      e.preventDefault();
      setTop(shiftRows(top, -Math.floor(rowCount / 2), step, grid));
    } else if (e.key === '[') {
      e.preventDefault();
      place('bid', cur);
    } else if (e.key === ']') {
      e.preventDefault();
      place('ask', cur);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      void cancelOrders(ordersAt(cur, 'both'), 'ladder');
    }
  };

  return onKey;
}
