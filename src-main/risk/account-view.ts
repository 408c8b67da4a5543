// The whole account as the gate and the kill switch count it, whatever key the profile signs with.
// A key scoped to one subaccount (or bound to one FCM subtrader) sees only that part of the
// account: its session's store holds that subaccount's orders and positions, and nothing of the
// others (the exchange refuses it any other subaccount: 403). Limits are the account's, so:
//   - the session's key is asked what it is scoped to (GET /api_keys lists the key itself);
//   - an account-wide key the profile also holds reads every subaccount (resting orders,
//     positions, which subaccounts exist) every POLL_MS; it is used to read and, by the kill
//     switch, to cancel, never to place;
//   - what the gate counts is the session's own store plus what that read saw in the other
//     subaccounts;
//   - while the view is incomplete (the scope not known yet, no account-wide key in the profile,
//     or its last read older than STALE_MS) orders that add exposure are refused, and the kill
//     switch says which subaccounts it could not reach and why.
import type { ApiClient } from '../api/client';
import { collectAll } from '../api/paginate';
import { subaccountOfRow } from '../session/private-store';

type Row = Record<string, unknown>;

/** What a key can see of its account. */
export type KeyScope = { kind: 'account' } | { kind: 'subaccount'; subaccount: number } | { kind: 'subtrader'; id: string };

export const POLL_MS = 2_000;
export const STALE_MS = 15_000;
/** how often a scoped key's view looks again for an account-wide key in the profile, while it has none */
export const RESOLVE_AGAIN_MS = 30_000;

export function scopeText(s: KeyScope | null): string {
  if (!s) return 'scope unknown';
  if (s.kind === 'account') return 'account-wide';
  if (s.kind === 'subaccount') return `subaccount ${s.subaccount} only`;
  return `FCM subtrader ${s.id} only`;
}

/** Whether a key of scope `to` sees less of the account than one of scope `from` (unknown counts as less). */
export function narrower(from: KeyScope | null, to: KeyScope | null): boolean {
  if (!to) return true;
  if (!from) return to.kind !== 'account';
  if (to.kind === 'account') return false;
  if (from.kind === 'account') return true;
  return from.kind !== to.kind || (from.kind === 'subaccount' && to.kind === 'subaccount' ? from.subaccount !== to.subaccount : from.kind === 'subtrader' && to.kind === 'subtrader' && from.id !== to.id);
}

/** The scope of key `keyId`, asked with a client signed by that key (a key always lists itself). */
export async function scopeOfKey(client: ApiClient, keyId: string): Promise<KeyScope> {
  const { api_keys } = await client.getApiKeys();
  const own = api_keys.find((k) => k.api_key === keyId);
  if (!own) throw new Error(`the exchange does not list key ${keyId} among its own keys`);
  if (own.fcm_subtrader_id !== null && own.fcm_subtrader_id !== undefined) return { kind: 'subtrader', id: own.fcm_subtrader_id };
  if (own.subaccount !== null && own.subaccount !== undefined) return { kind: 'subaccount', subaccount: own.subaccount };
  return { kind: 'account' };
}

/** An account-wide key of the profile, to read (and cancel in) every subaccount. */
export interface AccountReader {
  keyId: string;
  client: ApiClient;
}

export interface AccountViewParts {
  /** the session's key */
  keyId: string;
  /** its scope, and for a scoped key an account-wide key of the same profile (null: none) */
  resolve: () => Promise<{ scope: KeyScope; reader: AccountReader | null }>;
  log: (m: string) => void;
  now?: () => number;
}

interface Snapshot {
  at: number;
  /** resting orders outside the session's own part of the account */
  resting: Row[];
  /** positions outside it */
  positions: Row[];
  /** every subaccount of the account */
  subaccounts: number[];
}

export class AccountView {
  scope: KeyScope | null = null;
  reader: AccountReader | null = null;
  private scopeError: string | null = null;
  private resolvedAt = 0;
  private readError: string | null = null;
  private snap: Snapshot | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly p: AccountViewParts) {
    this.now = p.now ?? Date.now;
  }

  /** Reads once (awaited, so the gate has the view before the session is handed out), then every POLL_MS. */
  async start(): Promise<void> {
    await this.refresh();
    if (this.stopped || this.scope?.kind === 'account') return;
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.refresh().finally(() => {
          if (!this.stopped) tick();
        });
      }, POLL_MS);
      this.timer.unref?.();
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** The key sees the whole account itself: the session's store is the account. */
  get accountWide(): boolean {
    return this.scope?.kind === 'account';
  }

  /** The session key's own subaccount, when it is scoped to one. */
  get ownSubaccount(): number | null {
    return this.scope?.kind === 'subaccount' ? this.scope.subaccount : null;
  }

  /**
   * Before the kill switch sweeps: when the key's scope is not known (its first read was refused,
   * a 429 on the shared bucket among others) or a scoped key has no account-wide reader yet, both
   * are asked again now rather than at the next due read, so the sweep reaches every subaccount.
   */
  async resolveAgain(): Promise<void> {
    if (this.scope?.kind === 'account' || (this.scope && this.reader)) return;
    await this.reading?.catch(() => undefined);
    this.resolvedAt = Number.NEGATIVE_INFINITY;
    await this.refresh().catch(() => undefined);
  }

  /** One read at a time; a call during a read waits for it. */
  refresh(): Promise<void> {
    if (!this.reading) this.reading = this.read().finally(() => (this.reading = null));
    return this.reading;
  }

  /**
   * A read that starts after this call: a read already in flight may have been sent before what
   * the caller just did (the kill switch's cancel-all), so it is waited for and another one made.
   * (Joining it, the kill switch said "2 still resting" of orders its own sweep had canceled.)
   * Answers why that read failed, or null (what others() holds is then that read's).
   */
  async refreshAfter(): Promise<string | null> {
    await this.reading?.catch(() => undefined);
    await this.refresh();
    return this.readError;
  }

  private async read(): Promise<void> {
    // a scoped key without an account-wide key to read with looks again now and then (one may have been imported since)
    const again = this.scope !== null && this.scope.kind !== 'account' && !this.reader && this.now() - this.resolvedAt > RESOLVE_AGAIN_MS;
    if (!this.scope || again) {
      try {
        const r = await this.p.resolve();
        const news = !this.scope || r.reader?.keyId !== this.reader?.keyId;
        this.resolvedAt = this.now();
        this.scope = r.scope;
        this.reader = r.reader;
        this.scopeError = null;
        if (news && r.scope.kind !== 'account') {
          this.p.log(`[risk] key ${this.p.keyId} is ${scopeText(r.scope)}: ${r.reader ? `the account's other subaccounts are read with the profile's account-wide key ${r.reader.keyId}` : 'the profile holds no account-wide key, so the gate cannot see the other subaccounts'}`);
        }
      } catch (e) {
        this.resolvedAt = this.now();
        if (!this.scope) {
          this.scopeError = (e as Error).message;
          return;
        }
      }
    }
    if (!this.scope) return;
    if (this.scope.kind === 'account' || !this.reader) return;
    const c = this.reader.client;
    try {
      const [orders, positions, balances] = await Promise.all([
        collectAll(c, 'getOrders', { query: { status: 'resting' } }, { maxPages: 50 }),
        c.getPositions({ query: { count_filter: 'position', limit: 1000 } }),
        c.getSubaccountBalances(),
      ]);
      const own = this.ownSubaccount;
      // a subtrader's key: the reader's rows of the whole account are counted as they are (over,
      // never under: its own rows are in the session's store too, deduplicated by order id)
      const outside = (r: Row) => own === null || subaccountOfRow(r) !== own;
      this.snap = {
        at: this.now(),
        resting: (orders as Row[]).filter(outside),
        positions: (((positions as { market_positions?: Row[] }).market_positions ?? []) as Row[]).filter(outside),
        subaccounts: [...new Set([0, ...balances.subaccount_balances.map((b) => b.subaccount_number)])].sort((a, b) => a - b),
      };
      this.readError = null;
    } catch (e) {
      this.readError = (e as Error).message;
    }
  }

  /** What the gate adds to the session's own store: the rest of the account as last read. */
  others(): { resting: readonly Row[]; positions: readonly Row[] } {
    if (this.accountWide || !this.snap) return { resting: [], positions: [] };
    return { resting: this.snap.resting, positions: this.snap.positions };
  }

  /** Every subaccount last seen (the primary at least). */
  subaccounts(): number[] {
    return this.snap?.subaccounts ?? [0];
  }

  /** Why the gate does not see the whole account now; null when it does. */
  incomplete(): string | null {
    if (!this.scope) return `the scope of key ${this.p.keyId} is not known yet (${this.scopeError ?? 'asking the exchange'}), so the gate cannot tell whether it sees the whole account`;
    if (this.scope.kind === 'account') return null;
    const what = `key ${this.p.keyId} is scoped to ${scopeText(this.scope)}`;
    if (!this.reader) return `${what} and this profile holds no account-wide key, so the gate cannot see the account's other subaccounts (import an account-wide key into the profile: it is only used to read them and by the kill switch)`;
    if (!this.snap) return `${what} and the account's other subaccounts could not be read yet with key ${this.reader.keyId}${this.readError ? ` (${this.readError})` : ''}`;
    const age = this.now() - this.snap.at;
    if (age > STALE_MS) return `${what} and the last read of the account's other subaccounts is ${Math.round(age / 1000)} s old${this.readError ? ` (${this.readError})` : ''}`;
    return null;
  }
}
