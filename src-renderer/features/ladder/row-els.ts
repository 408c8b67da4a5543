// One ladder row's elements and the record of what they show (its paint cache), shared by the
// DOM paint (useLadderPaint.ts) and the canvas that draws the numbers (ladder-canvas.ts).
export interface RowEls {
  row: HTMLDivElement;
  myBid: HTMLElement;
  bidQty: HTMLElement;
  /** the bid cell: without a canvas its depth bar is its background, sized by the custom property --d */
  bidCell: HTMLElement;
  price: HTMLElement;
  askQty: HTMLElement;
  askCell: HTMLElement;
  myAsk: HTMLElement;
  cumBid: HTMLElement;
  cumAsk: HTMLElement;
  vol: HTMLElement;
  /** what the cells show now, so a paint writes only what changed */
  last: { hidden: boolean; cls: string; price: string; bid: string; ask: string; bidBar: number; askBar: number; cumBid: string; cumAsk: string; vol: string; myBid: string; myAsk: string };
}
