// The keyboard map: every action with its default binding, and the pure rules for reading,
// remapping and checking bindings. Bindings use react-hotkeys-hook's physical-key names
// ("mod+k", "shift+b", "alt+1", "equal", "shift+slash"); `mod` is Cmd on macOS and Ctrl elsewhere.
// Settings persist only the bindings that differ from the defaults ('' = unbound).

export type ActionGroup = 'Trading' | 'Ticket' | 'Ladder' | 'Panels' | 'App';

export interface ActionDef {
  id: string;
  label: string;
  group: ActionGroup;
  defaultKeys: string;
  /** also fires while typing in a field (palette, settings, submit) */
  global?: boolean;
  /** sends, cancels or refuses orders, or throws work away: the palette never preselects it on a partial match */
  danger?: boolean;
}

export const PANEL_IDS = [
  'markets',
  'ladder',
  'ticket',
  'chart',
  'orders',
  'positions',
  'rfq',
  'account',
  'history',
  'livedata',
  'fcm',
  'risk',
  'tape',
  'alerts',
  'eventladders',
  'recordings',
  'strategies',
  'fix',
  'heatmap',
] as const;
export type PanelId = (typeof PANEL_IDS)[number];

export const PANEL_TITLES: Record<PanelId, string> = {
  markets: 'Markets',
  ladder: 'Ladder',
  ticket: 'Order ticket',
  chart: 'Chart',
  orders: 'Orders',
  positions: 'Positions & P&L',
  rfq: 'RFQ blotter',
  account: 'Account',
  history: 'History',
  livedata: 'Live data',
  fcm: 'FCM',
  risk: 'Risk & audit',
  tape: 'Time & sales',
  alerts: 'Alerts',
  eventladders: 'Event ladders',
  recordings: 'Recordings',
  strategies: 'Strategies',
  fix: 'FIX & drop copy',
  heatmap: 'Depth heatmap',
};

const PANEL_KEYS: Record<PanelId, string> = {
  markets: 'alt+1',
  ladder: 'alt+2',
  ticket: 'alt+3',
  chart: 'alt+4',
  orders: 'alt+5',
  positions: 'alt+6',
  rfq: 'alt+7',
  account: 'alt+8',
  history: 'alt+9',
  livedata: 'alt+0',
  fcm: 'alt+minus',
  risk: 'alt+equal',
  tape: 'alt+backquote',
  alerts: 'alt+shift+a',
  eventladders: 'alt+shift+v',
  recordings: 'alt+shift+d',
  strategies: 'alt+shift+y',
  fix: 'alt+shift+x',
  heatmap: 'alt+shift+h',
};

/** A panel whose palette entry says more than "Focus <title>" (it opens the panel when it is not in the layout). */
const PANEL_LABELS: Partial<Record<PanelId, string>> = {
  heatmap: 'Open depth heatmap (the linked market\'s resting size, price by price, over the session)',
};

export const ACTIONS: readonly ActionDef[] = [
  { id: 'trade.buyBid', label: 'Buy at the bid (join)', group: 'Trading', defaultKeys: 'b', danger: true },
  { id: 'trade.buyAsk', label: 'Buy at the ask (cross)', group: 'Trading', defaultKeys: 'shift+b', danger: true },
  { id: 'trade.sellAsk', label: 'Sell at the ask (join)', group: 'Trading', defaultKeys: 's', danger: true },
  { id: 'trade.sellBid', label: 'Sell at the bid (cross)', group: 'Trading', defaultKeys: 'shift+s', danger: true },
  { id: 'trade.cancelAllMarket', label: 'Cancel all my orders in this market', group: 'Trading', defaultKeys: 'shift+x', danger: true },
  { id: 'risk.engageKill', label: 'Engage the kill switch: cancel every order, refuse new ones', group: 'Trading', defaultKeys: 'mod+shift+k', global: true, danger: true },
  { id: 'risk.releaseKill', label: 'Release the kill switch (asks first)', group: 'Trading', defaultKeys: 'mod+alt+shift+k', global: true, danger: true },
  { id: 'trade.flatten', label: 'Flatten my position in this market', group: 'Trading', defaultKeys: 'shift+f', danger: true },
  { id: 'trade.reverse', label: 'Reverse my position in this market (YES <-> NO, same size; asks, Keep focused)', group: 'Trading', defaultKeys: 'shift+r', danger: true },
  { id: 'ticket.submit', label: 'Submit the order ticket', group: 'Ticket', defaultKeys: 'mod+enter', global: true, danger: true },
  { id: 'ticket.size1', label: 'Size preset 1 (not in the ladder: there digits type a size)', group: 'Ticket', defaultKeys: '1' },
  { id: 'ticket.size2', label: 'Size preset 2 (not in the ladder: there digits type a size)', group: 'Ticket', defaultKeys: '2' },
  { id: 'ticket.size3', label: 'Size preset 3 (not in the ladder: there digits type a size)', group: 'Ticket', defaultKeys: '3' },
  { id: 'ticket.size4', label: 'Size preset 4 (not in the ladder: there digits type a size)', group: 'Ticket', defaultKeys: '4' },
  { id: 'ticket.size5', label: 'Size preset 5 (not in the ladder: there digits type a size)', group: 'Ticket', defaultKeys: '5' },
  { id: 'ticket.priceUp', label: 'Ticket price up one tick', group: 'Ticket', defaultKeys: 'equal' },
  { id: 'ticket.priceDown', label: 'Ticket price down one tick', group: 'Ticket', defaultKeys: 'minus' },
  { id: 'ticket.toggleSide', label: 'Switch ticket side (buy / sell)', group: 'Ticket', defaultKeys: 't' },
  { id: 'ticket.focusPrice', label: 'Focus the ticket price', group: 'Ticket', defaultKeys: 'p' },
  { id: 'ticket.focusCount', label: 'Focus the ticket count', group: 'Ticket', defaultKeys: 'q' },
  { id: 'ladder.center', label: 'Center the ladder on the inside market', group: 'Ladder', defaultKeys: 'c' },
  { id: 'ladder.toggleView', label: 'Switch the ladder between YES and NO', group: 'Ladder', defaultKeys: 'v' },
  { id: 'ladder.improveBid', label: 'Ladder: bid better than the best bid by the ladder\'s Improve rows (1 unless set; joins when the spread is one tick; never crosses)', group: 'Ladder', defaultKeys: 'alt+bracketleft', danger: true },
  { id: 'ladder.improveAsk', label: 'Ladder: offer better than the best offer by the ladder\'s Improve rows (1 unless set; joins when the spread is one tick; never crosses)', group: 'Ladder', defaultKeys: 'alt+bracketright', danger: true },
  { id: 'ladder.cancelBids', label: 'Ladder: cancel my bids in this market (the ladder view\'s side)', group: 'Ladder', defaultKeys: 'alt+shift+bracketleft', danger: true },
  { id: 'ladder.cancelAsks', label: 'Ladder: cancel my offers in this market (the ladder view\'s side)', group: 'Ladder', defaultKeys: 'alt+shift+bracketright', danger: true },
  ...PANEL_IDS.map((p): ActionDef => ({ id: `panel.${p}`, label: PANEL_LABELS[p] ?? `Focus ${PANEL_TITLES[p]}`, group: 'Panels', defaultKeys: PANEL_KEYS[p], global: true })),
  { id: 'markets.search', label: 'Search markets', group: 'Panels', defaultKeys: 'slash' },
  { id: 'layout.newLadder', label: 'New ladder in the next link colour', group: 'Panels', defaultKeys: 'alt+shift+l' },
  { id: 'layout.newChart', label: 'New chart in the next link colour', group: 'Panels', defaultKeys: 'alt+shift+g' },
  { id: 'layout.newTape', label: 'New time & sales in the next link colour', group: 'Panels', defaultKeys: 'alt+shift+w' },
  { id: 'layout.newTicket', label: 'New order ticket in the next link colour', group: 'Panels', defaultKeys: 'alt+shift+o' },
  { id: 'layout.newMarkets', label: 'New markets list in the next link colour', group: 'Panels', defaultKeys: 'alt+shift+n' },
  { id: 'app.palette', label: 'Command palette', group: 'App', defaultKeys: 'mod+k', global: true },
  { id: 'app.help', label: 'Keyboard help', group: 'App', defaultKeys: 'shift+slash' },
  { id: 'app.helpF1', label: 'Keyboard help (F1, as in most programs)', group: 'App', defaultKeys: 'f1' },
  { id: 'app.settings', label: 'Settings and key map', group: 'App', defaultKeys: 'mod+comma', global: true },
  { id: 'app.resetLayout', label: 'Reset the panel layout (asks first)', group: 'App', defaultKeys: 'alt+shift+r', danger: true },
  { id: 'layout.saveAs', label: 'Save layout as… (a name, to switch back to later)', group: 'App', defaultKeys: 'alt+shift+s' },
  { id: 'layout.manage', label: 'Layouts: switch to a saved layout, or delete one', group: 'App', defaultKeys: 'alt+shift+m' },
  { id: 'app.fontLarger', label: 'Larger text (12, 13, 14, 16 px)', group: 'App', defaultKeys: 'alt+shift+equal' },
  { id: 'app.fontSmaller', label: 'Smaller text (16, 14, 13, 12 px)', group: 'App', defaultKeys: 'alt+shift+minus' },
  { id: 'app.popout', label: 'Pop the focused panel out into its own window', group: 'App', defaultKeys: 'alt+shift+p' },
  { id: 'app.toggleTheme', label: 'Switch dark / light theme', group: 'App', defaultKeys: 'alt+shift+t' },
  { id: 'app.exportCsv', label: 'Export the focused blotter as CSV', group: 'App', defaultKeys: 'alt+shift+e' },
];

export const ACTION_BY_ID: ReadonlyMap<string, ActionDef> = new Map(ACTIONS.map((a) => [a.id, a]));

const MODIFIER_ORDER = ['mod', 'ctrl', 'alt', 'shift', 'meta'] as const;
const MODIFIER_ALIASES: Record<string, (typeof MODIFIER_ORDER)[number]> = {
  mod: 'mod',
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  shift: 'shift',
  meta: 'meta',
  cmd: 'meta',
  command: 'meta',
};
const KEY_ALIASES: Record<string, string> = {
  esc: 'escape',
  return: 'enter',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  '/': 'slash',
  '=': 'equal',
  '-': 'minus',
  ',': 'comma',
  '.': 'period',
  ';': 'semicolon',
  "'": 'quote',
  '[': 'bracketleft',
  ']': 'bracketright',
  '\\': 'backslash',
  '`': 'backquote',
  ' ': 'space',
  del: 'delete',
};
/** Keys a binding may end in (react-hotkeys-hook's names of KeyboardEvent.code). */
const KEY_RE = /^(?:[a-z0-9]|f(?:[1-9]|1[0-9]|2[0-4])|arrow(?:up|down|left|right)|enter|escape|space|tab|backspace|delete|insert|home|end|pageup|pagedown|slash|equal|minus|comma|period|semicolon|quote|bracketleft|bracketright|backslash|backquote)$/;

/** Canonical form of a binding ("Shift+Ctrl+K" -> "ctrl+shift+k"), or null when it is not one key plus modifiers. */
export function normalizeCombo(text: string): string | null {
  const raw = text.trim().toLowerCase();
  if (!raw) return null;
  // "+" alone or at the end means the plus key, which react-hotkeys-hook calls "equal" with shift
  const parts = raw.split('+').map((p) => p.trim());
  const mods = new Set<string>();
  let key: string | null = null;
  for (const part of parts) {
    if (!part) return null;
    const mod = MODIFIER_ALIASES[part];
    if (mod) {
      mods.add(mod);
      continue;
    }
    if (key !== null) return null;
    key = KEY_ALIASES[part] ?? part.replace(/^key(?=[a-z]$)/, '').replace(/^(?:digit|numpad)(?=\d$)/, '');
  }
  if (key === null || !KEY_RE.test(key)) return null;
  return [...MODIFIER_ORDER.filter((m) => mods.has(m)), key].join('+');
}

export interface KeyLike {
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/** The binding a key press would match, for recording a new binding (null for a bare modifier). */
export function comboFromEvent(e: KeyLike, isMac: boolean): string | null {
  const code = e.code.toLowerCase();
  if (/^(?:shift|control|alt|meta|os)(?:left|right)?$/.test(code)) return null;
  const key = code.replace(/^key(?=[a-z]$)/, '').replace(/^(?:digit|numpad)(?=\d$)/, '');
  const mods: string[] = [];
  if (isMac ? e.metaKey : e.ctrlKey) mods.push('mod');
  if (isMac && e.ctrlKey) mods.push('ctrl');
  if (e.altKey) mods.push('alt');
  if (e.shiftKey) mods.push('shift');
  if (!isMac && e.metaKey) mods.push('meta');
  return normalizeCombo([...mods, key].join('+'));
}

export type Keymap = Record<string, string>;

/** Defaults overlaid with the saved overrides. Unknown actions are dropped, unreadable bindings keep the default. */
export function resolveKeymap(overrides: Readonly<Record<string, string>> = {}): Keymap {
  const map: Keymap = {};
  for (const a of ACTIONS) {
    const saved = overrides[a.id];
    if (saved === undefined) map[a.id] = a.defaultKeys;
    else if (saved === '') map[a.id] = '';
    else map[a.id] = normalizeCombo(saved) ?? a.defaultKeys;
  }
  return map;
}

/** What to persist: only the bindings that differ from the defaults. */
export function keymapOverrides(map: Readonly<Keymap>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of ACTIONS) {
    const v = map[a.id] ?? a.defaultKeys;
    if (v !== a.defaultKeys) out[a.id] = v;
  }
  return out;
}

/** Bindings used by more than one action: combo -> action ids. */
export function findConflicts(map: Readonly<Keymap>): Map<string, string[]> {
  const byCombo = new Map<string, string[]>();
  for (const a of ACTIONS) {
    const combo = map[a.id];
    if (!combo) continue;
    const list = byCombo.get(combo) ?? [];
    list.push(a.id);
    byCombo.set(combo, list);
  }
  for (const [combo, ids] of byCombo) if (ids.length < 2) byCombo.delete(combo);
  return byCombo;
}

/**
 * Binds `actionId` to `combo`. An action that held the combo is left unbound and reported, so the
 * settings dialog can say what it took the key from.
 */
export function rebind(map: Readonly<Keymap>, actionId: string, combo: string): { map: Keymap; displaced: string[] } {
  const normalized = combo === '' ? '' : normalizeCombo(combo);
  if (normalized === null) throw new Error(`"${combo}" is not a key binding`);
  if (!ACTION_BY_ID.has(actionId)) throw new Error(`unknown action ${actionId}`);
  const next: Keymap = { ...map };
  const displaced: string[] = [];
  if (normalized) {
    for (const [id, c] of Object.entries(next)) {
      if (id !== actionId && c === normalized) {
        next[id] = '';
        displaced.push(id);
      }
    }
  }
  next[actionId] = normalized;
  return { map: next, displaced };
}

/** combo -> action id, for dispatching a key press. With a conflict the first action in ACTIONS wins. */
export function bindingIndex(map: Readonly<Keymap>): Map<string, string> {
  const index = new Map<string, string>();
  for (const a of ACTIONS) {
    const combo = map[a.id];
    if (combo && !index.has(combo)) index.set(combo, a.id);
  }
  return index;
}

const KEY_LABELS: Record<string, string> = {
  slash: '/',
  equal: '=',
  minus: '-',
  comma: ',',
  period: '.',
  semicolon: ';',
  quote: "'",
  bracketleft: '[',
  bracketright: ']',
  backslash: '\\',
  backquote: '`',
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
  enter: 'Enter',
  escape: 'Esc',
  space: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Del',
  pageup: 'PgUp',
  pagedown: 'PgDn',
};

/** "mod+shift+k" -> "Ctrl+Shift+K" (or "⌘⇧K" on macOS); "shift+slash" -> "?". */
export function formatCombo(combo: string, isMac: boolean): string {
  if (!combo) return '';
  if (combo === 'shift+slash') return '?';
  const parts = combo.split('+');
  const key = parts.pop() ?? '';
  const label = KEY_LABELS[key] ?? key.toUpperCase();
  const names: Record<string, [string, string]> = {
    mod: ['⌘', 'Ctrl'],
    ctrl: ['⌃', 'Ctrl'],
    alt: ['⌥', 'Alt'],
    shift: ['⇧', 'Shift'],
    meta: ['⌘', 'Meta'],
  };
  const mods = parts.map((m) => (names[m] ?? [m, m])[isMac ? 0 : 1]);
  return isMac ? mods.join('') + label : [...mods, label].join('+');
}

export function isMacPlatform(): boolean {
  return typeof navigator !== 'undefined' && /mac/i.test(navigator.userAgent) && !/iphone|ipad|ipod/i.test(navigator.userAgent);
}
