// Environment profiles: where the REST and WebSocket endpoints live and which header prefix
// the exchange expects. `embedded` is the local exchange (URLs known only at runtime), `demo`
// and `production` are the real exchange's hosts, `custom` is anything else.
import { z } from 'zod';
import { API_PREFIX, WS_PATH } from '../../src-shared/endpoints';
import { DEFAULT_HEADER_PREFIX } from './signer';
import { formatIssues } from './errors';

export const REAL_EXCHANGE_HEADER_PREFIX = 'KALSHI-';

export const KNOWN_HOSTS = {
  demo: { baseUrl: 'https://demo-api.kalshi.co/trade-api/v2', wsUrl: 'wss://demo-api.kalshi.co/trade-api/ws/v2' },
  production: { baseUrl: 'https://api.elections.kalshi.com/trade-api/v2', wsUrl: 'wss://api.elections.kalshi.com/trade-api/ws/v2' },
} as const;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
const wsUrl = z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' });
const headerPrefix = z
  .string()
  .regex(/^(?:[A-Za-z0-9]+-)+$/, 'header prefix must be letters/digits ending in "-", for example "SVC-" or "KALSHI-"');

export const ProfileInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('embedded'),
    name: z.string().min(1).optional(),
    baseUrl: httpUrl,
    /** defaults to the base URL's host with ws(s):// and /trade-api/ws/v2 */
    wsUrl: wsUrl.optional(),
    headerPrefix: headerPrefix.optional(),
  }),
  z.strictObject({ kind: z.literal('demo'), name: z.string().min(1).optional() }),
  z.strictObject({ kind: z.literal('production'), name: z.string().min(1).optional() }),
  z.strictObject({
    kind: z.literal('custom'),
    name: z.string().min(1).optional(),
    baseUrl: httpUrl,
    wsUrl: wsUrl.optional(),
    headerPrefix,
  }),
]);
export type ProfileInput = z.input<typeof ProfileInput>;
export type ProfileKind = ProfileInput['kind'];

export interface Profile {
  kind: ProfileKind;
  name: string;
  /** REST base including the API prefix, no trailing slash, e.g. `http://127.0.0.1:4000/trade-api/v2` */
  baseUrl: string;
  /** full WebSocket URL, e.g. `ws://127.0.0.1:4000/trade-api/ws/v2` */
  wsUrl: string;
  headerPrefix: string;
}

export class ProfileError extends Error {
  override name = 'ProfileError';
}

/** Validates a profile and fills in the known hosts and defaults. Throws ProfileError with every problem. */
export function resolveProfile(input: unknown): Profile {
  const parsed = ProfileInput.safeParse(input);
  if (!parsed.success) throw new ProfileError(`invalid environment profile: ${formatIssues(parsed.error.issues)}`);
  const p = parsed.data;
  switch (p.kind) {
    case 'demo':
    case 'production':
      return { kind: p.kind, name: p.name ?? p.kind, ...KNOWN_HOSTS[p.kind], headerPrefix: REAL_EXCHANGE_HEADER_PREFIX };
    case 'embedded':
    case 'custom': {
      const baseUrl = normaliseBase(p.baseUrl);
      const ws = p.wsUrl ? normaliseWs(p.wsUrl) : deriveWs(baseUrl);
      requireTls(baseUrl, 'https:', 'baseUrl');
      requireTls(ws, 'wss:', 'wsUrl');
      return {
        kind: p.kind,
        name: p.name ?? (p.kind === 'embedded' ? 'embedded' : new URL(baseUrl).host),
        baseUrl,
        wsUrl: ws,
        headerPrefix: p.headerPrefix ?? DEFAULT_HEADER_PREFIX,
      };
    }
  }
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves this computer. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** Signed requests travel encrypted unless they never leave the machine. */
function requireTls(url: string, secure: 'https:' | 'wss:', what: string): void {
  const u = new URL(url);
  if (u.protocol !== secure && !isLoopbackHost(u.hostname)) {
    throw new ProfileError(`invalid environment profile: ${what} must use ${secure.slice(0, -1)}:// (plain ${u.protocol.slice(0, -1)}:// is allowed only for this computer: localhost, 127.0.0.1, ::1), got ${url}`);
  }
}

/** `http://h:1` and `http://h:1/` gain the API prefix; a base that already has a path keeps it. */
function normaliseBase(raw: string): string {
  const u = new URL(raw);
  if (u.search || u.hash) throw new ProfileError(`invalid environment profile: baseUrl must not carry a query or fragment (${raw})`);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${path === '' ? API_PREFIX : path}`;
}

function normaliseWs(raw: string): string {
  const u = new URL(raw);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${u.host}${path === '' ? WS_PATH : path}${u.search}`;
}

function deriveWs(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}${WS_PATH}`;
}
