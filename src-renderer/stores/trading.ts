// What the trader is working on: the selected market, the watchlist, the order ticket's draft and
// the ladder's view. Shared by the ladder, ticket, chart and hotkeys without them importing each other.
import { create } from 'zustand';
import { isStringArray, readLocal, writeLocal } from '../lib/storage';

export type TimeInForceChoice = 'good_till_canceled' | 'immediate_or_cancel' | 'fill_or_kill';
export type StpChoice = '' | 'taker_at_cross' | 'maker';

export interface TicketDraft {
  side: 'bid' | 'ask';
  /** YES price in dollars as typed */
  price: string;
  count: string;
  tif: TimeInForceChoice;
  stp: StpChoice;
  orderGroupId: string;
  /** '' = primary account */
  subaccount: string;
  postOnly: boolean;
  /** datetime-local text, '' = no expiry */
  expiration: string;
}

/**
 * Link groups (as in TT or CQG): every panel either follows a colour's market or is pinned to its
 * own. `white` is the default group and its market is `ticker` (what hotkeys and the status bar
 * act on); choosing a market in a panel of a colour drives every panel of that colour.
 */
export const LINK_COLOURS = ['white', 'red', 'green', 'blue', 'yellow'] as const;
export type LinkColour = (typeof LINK_COLOURS)[number];
export type Link = LinkColour | 'pin';

export interface TradingState {
  /** the white (default) group's market */
  ticker: string | null;
  /** the other colours' markets */
  groups: Record<Exclude<LinkColour, 'white'>, string | null>;
  /** pinned panels' markets by panel id (so their books stream) */
  pins: Record<string, string>;
  watchlist: string[];
  watchKey: string;
  draft: TicketDraft;
  ladderView: 'yes' | 'no';
  /** bumps when something asks the ticket to take focus */
  focusRequest: { field: 'price' | 'count'; n: number };
  selectMarket(ticker: string | null): void;
  /** choose a market for a link group (white: the same as selectMarket) */
  selectIn(link: LinkColour, ticker: string | null): void;
  setPin(panelId: string, ticker: string | null): void;
  setDraft(patch: Partial<TicketDraft>): void;
  setLadderView(view: 'yes' | 'no'): void;
  toggleWatch(ticker: string): void;
  setWatchlist(list: string[]): void;
  useWatchlistOf(profileId: string | null): void;
  requestTicketFocus(field: 'price' | 'count'): void;
}

const SELECTED_KEY = 'terminal.selectedMarket';
const GROUPS_KEY = 'terminal.linkGroups';
const isGroups = (v: unknown): v is TradingState['groups'] =>
  !!v && typeof v === 'object' && ['red', 'green', 'blue', 'yellow'].every((k) => isNullableString((v as Record<string, unknown>)[k]));
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';

export const MAX_WATCH = 100;

export const useTrading = create<TradingState>()((set, get) => ({
  ticker: readLocal<string | null>(SELECTED_KEY, null, isNullableString),
  groups: readLocal(GROUPS_KEY, { red: null, green: null, blue: null, yellow: null }, isGroups),
  pins: {},
  watchlist: [],
  watchKey: 'terminal.watchlist',
  draft: {
    side: 'bid',
    price: '',
    count: '1',
    tif: 'good_till_canceled',
    stp: '',
    orderGroupId: '',
    subaccount: '',
    postOnly: false,
    expiration: '',
  },
  ladderView: 'yes',
  focusRequest: { field: 'price', n: 0 },
  selectMarket(ticker) {
    if (ticker === get().ticker) return;
    writeLocal(SELECTED_KEY, ticker);
    set({ ticker, draft: { ...get().draft, price: '' } });
  },
  selectIn(link, ticker) {
    if (link === 'white') return get().selectMarket(ticker);
    if (get().groups[link] === ticker) return;
    const groups = { ...get().groups, [link]: ticker };
    writeLocal(GROUPS_KEY, groups);
    set({ groups });
  },
  setPin(panelId, ticker) {
    const pins = { ...get().pins };
    if (ticker) pins[panelId] = ticker;
    else delete pins[panelId];
    set({ pins });
  },
  setDraft(patch) {
    set({ draft: { ...get().draft, ...patch } });
  },
  setLadderView(view) {
    set({ ladderView: view });
  },
  toggleWatch(ticker) {
    const list = get().watchlist;
    const next = list.includes(ticker) ? list.filter((t) => t !== ticker) : [...list, ticker].slice(-MAX_WATCH);
    get().setWatchlist(next);
  },
  setWatchlist(list) {
    writeLocal(get().watchKey, list);
    set({ watchlist: list });
  },
  useWatchlistOf(profileId) {
    const watchKey = `terminal.watchlist.${profileId ?? 'none'}`;
    set({ watchKey, watchlist: readLocal(watchKey, [], isStringArray) });
  },
  requestTicketFocus(field) {
    set({ focusRequest: { field, n: get().focusRequest.n + 1 } });
  },
}));
