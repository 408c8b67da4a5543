// The ladder's toolbar, on one line at every width the ladder takes (down to its 280 px minimum).
// Wide, every control sits on the bar; narrow (the ladder's container query in app.css), the
// market name gives way first (ellipsis, the whole name in its title), and the settings a trader
// sets once (row spacing, Follow, Improve by, the Σ and Vol columns) move behind "⋯", while YES /
// NO, Center and the open P&L stay on the bar. One set of controls either way: the same elements
// are laid out inline or as the menu, so keys and tests find exactly one of each.
import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { Decimal } from '../../../src-shared/money';
import { fmtPnl, signOf } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { booksStore } from '../../stores/books';
import { usePrivate } from '../../stores/private';
import { midTicks, openPosition, type View } from './ladder-model';

/** How many rows Alt+[ / Alt+] improve by (the toolbar's "Improve" choice). */
export const IMPROVE_CHOICES = [1, 2, 3, 5, 10] as const;

export type StepChoice = 'auto' | 1 | 10 | 100;

export interface LadderToolbarProps {
  ticker: string;
  title: string | undefined;
  stale: boolean;
  view: View;
  onView: (v: View) => void;
  stepChoice: StepChoice;
  onStep: (s: StepChoice) => void;
  follow: boolean;
  onFollow: () => void;
  improveBy: number;
  onImproveBy: (n: number) => void;
  showCum: boolean;
  onCum: () => void;
  showVol: boolean;
  onVol: () => void;
  onCenter: () => void;
}

/** A crosshair: Center on the inside market. */
function CenterIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <circle cx="6" cy="6" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.2" />
      <path d="M6 0v3M6 9v3M0 6h3M9 6h3" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}

export function LadderToolbar(p: LadderToolbarProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const bar = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const toolsId = useId();

  // the menu closes on Esc (focus back on "⋯") and on a press anywhere outside the bar
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onDown = (e: PointerEvent) => {
      if (!bar.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => document.removeEventListener('pointerdown', onDown, true);
  }, [menuOpen]);

  return (
    <div
      className="panel-bar ladder-bar"
      ref={bar}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && menuOpen) {
          e.stopPropagation();
          setMenuOpen(false);
          more.current?.focus();
        }
      }}
    >
      <span className="ladder-name" title={p.title ? `${p.ticker} — ${p.title}` : p.ticker}>
        <strong>{p.ticker}</strong>
        {p.title && <span className="dim"> {p.title}</span>}
      </span>
      {p.stale && (
        <span className="stale-mark" role="status" title="The book may be out of date: main is resyncing it">
          ⚠ STALE
        </span>
      )}
      <LadderOpen ticker={p.ticker} view={p.view} />
      <div className="seg" role="group" aria-label="Ladder view">
        <button type="button" aria-pressed={p.view === 'yes'} onClick={() => p.onView('yes')}>
          YES
        </button>
        <button type="button" aria-pressed={p.view === 'no'} onClick={() => p.onView('no')}>
          NO
        </button>
      </div>
      <div className={`ladder-tools${menuOpen ? ' is-open' : ''}`} id={toolsId} role="group" aria-label="Ladder settings">
        <label className="check" title="Row spacing: auto follows the market's tick">
          <span className="dim ladder-tools-label">Rows</span>
          <select aria-label="Row spacing" value={String(p.stepChoice)} onChange={(e) => p.onStep(e.target.value === 'auto' ? 'auto' : (Number(e.target.value) as 1 | 10 | 100))}>
            <option value="auto">auto</option>
            <option value="100">0.01</option>
            <option value="10">0.001</option>
            <option value="1">0.0001</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn-sm"
          aria-pressed={p.follow}
          onClick={p.onFollow}
          title={p.follow ? 'Following the inside market: the ladder re-centres when it leaves the rows. Click for a static ladder.' : 'Static: the ladder stays where you put it. Click to follow the inside market.'}
        >
          {p.follow ? 'Follow' : 'Static'}
          <span className="ladder-menu-text" aria-hidden="true">
            {p.follow ? ' · re-centres on the inside' : ' · stays where you put it'}
          </span>
        </button>
        <label className="check" title="Alt+[ / Alt+] bid / offer this many rows better than the inside (never crossing: a bid stops one row under the best offer)">
          <span className="dim ladder-tools-label">Improve</span>
          <select aria-label="Improve by rows" value={String(p.improveBy)} onChange={(e) => p.onImproveBy(Number(e.target.value))}>
            {IMPROVE_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-sm" aria-pressed={p.showCum} onClick={p.onCum} title="Show or hide the cumulative depth columns (Σ)">
          Σ
          <span className="ladder-menu-text" aria-hidden="true">
            {' '}
            cumulative depth
          </span>
        </button>
        <button type="button" className="btn btn-sm" aria-pressed={p.showVol} onClick={p.onVol} title="Show or hide volume at price (this session's trades)">
          Vol
          <span className="ladder-menu-text" aria-hidden="true">
            {' '}
            volume at price
          </span>
        </button>
      </div>
      <button type="button" className="btn btn-sm ladder-center" aria-label="Center" onClick={p.onCenter} title={p.follow ? 'Center on the inside market (C)' : 'Static: center on the inside market and follow it again (C)'} data-static={p.follow ? undefined : ''}>
        <CenterIcon />
        <span className="ladder-tools-label">Center</span>
      </button>
      <button
        type="button"
        className="btn btn-sm ladder-more"
        ref={more}
        aria-label="More ladder settings"
        aria-haspopup="true"
        aria-expanded={menuOpen}
        aria-controls={toolsId}
        title="Row spacing, Follow, Improve by, the Σ and Vol columns"
        onClick={() => setMenuOpen((o) => !o)}
      >
        <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <circle cx="2" cy="6" r="1.2" fill="currentColor" />
          <circle cx="6" cy="6" r="1.2" fill="currentColor" />
          <circle cx="10" cy="6" r="1.2" fill="currentColor" />
        </svg>
      </button>
    </div>
  );
}

/** The open position's average price (marked on its row) and open P&L at the mid, in the bar. */
function LadderOpen({ ticker, view }: { ticker: string; view: View }) {
  const pos = usePrivate((s) => s.positions[ticker]);
  // a string selector: the bar re-renders when the mid moves, not on every book update
  const mid = useStore(booksStore, (s) => {
    const b = s.byTicker.get(ticker);
    return b && b.yesBids.length && b.yesAsks.length ? midTicks(b) : null;
  });
  const open = openPosition(pos?.position, pos?.exposure, mid);
  if (!open) return null;
  const avg = view === 'yes' ? open.avgYes : new Decimal(1).minus(open.avgYes).toFixed(4);
  return (
    <span className="ladder-open nowrap" data-testid="ladder-open" title="Average open price (the row marked ◆) and open P&L of this market's position at the mid">
      <span className="ladder-open-avg">
        <span className="dim">Avg</span> <span className="num">{fmtPx(ticker, avg)}</span>{' '}
      </span>
      <span className="dim">P&amp;L</span> <span className={`num ${signOf(open.pnl)}`}>{open.pnl === null ? '—' : fmtPnl(open.pnl)}</span>
    </span>
  );
}
