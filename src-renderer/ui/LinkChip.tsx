// The link chip in a panel's corner: its colour says which group the panel follows; a click
// moves to the next colour, and the striped one pins the panel to the market it shows now.
import { LINK_COLOURS, useTrading, type Link } from '../stores/trading';
import { usePanelLink } from '../hooks/useLink';

const ORDER: readonly Link[] = [...LINK_COLOURS, 'pin'];
const NAMES: Record<Link, string> = { white: 'white (default)', red: 'red', green: 'green', blue: 'blue', yellow: 'yellow', pin: 'pinned' };

export function LinkChip() {
  const ctx = usePanelLink();
  const groups = useTrading((s) => s.groups);
  const white = useTrading((s) => s.ticker);
  const current = ctx.link === 'pin' ? ctx.pinned : ctx.link === 'white' ? white : groups[ctx.link];
  const next = ORDER[(ORDER.indexOf(ctx.link) + 1) % ORDER.length]!;
  return (
    <button
      type="button"
      className="link-chip"
      data-link={ctx.link}
      data-testid="link-chip"
      aria-label={`Link group: ${NAMES[ctx.link]}${current ? ` (${current})` : ''}. Click for ${NAMES[next]}`}
      title={`Link group: ${NAMES[ctx.link]}${current ? ` — ${current}` : ''}.\nPanels of one colour follow the market chosen in any of them; pinned keeps this market. Click: ${NAMES[next]}.`}
      onClick={() => {
        if (next === 'pin') ctx.setPinned(current);
        ctx.setLink(next);
      }}
    />
  );
}
