// The exchange's REST surface, derived from the shared endpoint table: one route per row,
// the row's schemas validate params, query and body, auth and rate limits run before the
// handler, and every failure leaves as the protocol's error body. Handlers never see bad input.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { API_PREFIX, endpointList } from '../../src-shared/endpoints';
import type { AnyEndpoint } from '../../src-shared/endpoints/types';
import { readSignedHeaders, publicKeyFromPem, verifySignature } from '../auth/verify';
import { ExchangeError, forbidden, invalidParameters, notFound, unauthorized } from '../core/errors';
import { RateLimits, endpointCost } from './ratelimit';
import type { UsageTier } from '../../src-shared/rate-limits';
import { clientErrorHandler, codeForStatus, frameworkErrors, methodsByPath } from './framework-errors';

export interface Caller {
  userId: string;
  apiKeyId: string;
  scopes: readonly ('read' | 'write')[];
  /** a subaccount-scoped key is confined to this subaccount */
  subaccount: number | null;
  /** an FCM-bound key is denied on every REST endpoint */
  fcmSubtraderId: string | null;
  isFcmMember: boolean;
  tier: UsageTier;
}

export interface KeyRecord {
  publicKeyPem: string;
  caller: Caller;
}

export interface HandlerCtx {
  row: AnyEndpoint;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  caller: Caller | null;
  nowMs: number;
}

export type Handler = (ctx: HandlerCtx) => unknown;

export interface RestBackend {
  handlers: Readonly<Record<string, Handler | undefined>>;
  lookupKey(keyId: string): KeyRecord | undefined;
  nowMs(): number;
}

export interface AppOptions {
  rateLimits?: boolean;
  /** extra time added to the clock for skew tests */
  logErrors?: boolean;
}

function zodMessage(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)
    .join('; ');
}

function parseQuery(row: AnyEndpoint, url: string): Record<string, unknown> {
  const qIndex = url.indexOf('?');
  const search = new URLSearchParams(qIndex >= 0 ? url.slice(qIndex + 1) : '');
  const out: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    const style = row.arrays?.[key];
    const all = search.getAll(key);
    if (style === 'repeat') out[key] = all;
    else if (style === 'comma') out[key] = all.flatMap((v) => v.split(','));
    else out[key] = all[all.length - 1];
  }
  return out;
}

function parseOrThrow(schema: z.ZodType, value: unknown, where: string): unknown {
  const r = schema.safeParse(value);
  if (!r.success) throw invalidParameters(`invalid ${where}: ${zodMessage(r.error)}`, zodMessage(r.error));
  return r.data;
}

const SEND_JSON = 'send a JSON body with Content-Type: application/json (an empty object {} if there are no fields)';

/**
 * The body a body-taking row sees. JSON arrives parsed (undefined when empty). Anything else
 * arrives as `{__nonJson: text}`: an empty one is no body at all (the official SDK posts
 * body-less writes such as the usage-level upgrade with an empty form-encoded body), a
 * non-empty one is refused. A row marked jsonBodyRequired refuses a request without JSON.
 */
function requestBody(row: AnyEndpoint, raw: unknown): unknown {
  const nonJson = raw !== null && typeof raw === 'object' && '__nonJson' in raw ? String((raw as { __nonJson: unknown }).__nonJson) : null;
  if (row.jsonBodyRequired && (raw === undefined || nonJson !== null)) throw invalidParameters(SEND_JSON);
  if (nonJson === null) return raw;
  if (nonJson.trim() !== '') throw invalidParameters(SEND_JSON);
  return undefined;
}

function authenticate(req: FastifyRequest, row: AnyEndpoint, backend: RestBackend, nowMs: number): Caller | null {
  const signed = readSignedHeaders(req.headers);
  if (row.auth === 'public') return null;
  if (!signed) throw unauthorized('this endpoint requires a signed request', 'MISSING_API_KEY');
  const key = backend.lookupKey(signed.keyId);
  if (!key) throw unauthorized('unknown API key', 'INCORRECT_API_KEY');
  const path = req.url.split('?')[0]!.split('#')[0]!;
  verifySignature(signed, req.method, path, publicKeyFromPem(key.publicKeyPem), nowMs);
  const caller = key.caller;
  if (caller.fcmSubtraderId) throw forbidden('a key bound to an FCM subtrader is for FIX and the margin WebSocket only; it is denied on every REST endpoint');
  if (row.method !== 'GET' && !caller.scopes.includes('write')) throw forbidden('this API key is read-only');
  if (!caller.scopes.includes('read')) throw forbidden('this API key lacks the read scope');
  if (row.fcmOnly && !caller.isFcmMember) throw forbidden('this route is for FCM member accounts only');
  return caller;
}

export function buildApp(backend: RestBackend, opts: AppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: 4 * 1024 * 1024,
    keepAliveTimeout: 65_000,
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors,
  });
  const methodsOf = methodsByPath(endpointList);
  const limits = new RateLimits(opts.rateLimits ?? true);

  // Bodies: JSON only. Anything else arrives as text and is judged per row (a body-taking
  // route without a JSON body is a 400; a route without a body ignores it).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const s = typeof text === 'string' ? text : text.toString('utf8');
    if (s.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(s));
    } catch {
      done(invalidParameters('request body is not valid JSON'), undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => done(null, { __nonJson: text }));

  app.setErrorHandler((err: unknown, _req, reply) => {
    if (err instanceof ExchangeError) return reply.code(err.status).send(err.toBody());
    const e = err as { statusCode?: number; message?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send(new ExchangeError(e.statusCode, codeForStatus(e.statusCode), e.message ?? 'bad request').toBody());
    }
    if (opts.logErrors !== false) console.error('[exchange] internal error', err);
    return reply.code(500).send(new ExchangeError(500, 'internal_server_error', 'internal error').toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const allowed = methodsOf(path);
    if (allowed.length > 0) {
      reply.code(405).header('allow', allowed.join(', '));
      reply.send(new ExchangeError(405, codeForStatus(405), `${req.method} is not a method of ${path}; it answers ${allowed.join(', ')}`).toBody());
      return;
    }
    reply.code(404).send(notFound(`route ${req.method} ${path}`).toBody());
  });

  for (const row of endpointList) {
    const url = API_PREFIX + row.path.replace(/\{(\w+)\}/g, ':$1');
    app.route({
      method: row.method,
      url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const nowMs = backend.nowMs();
        const caller = authenticate(req, row, backend, nowMs);
        const params = parseOrThrow(row.params, req.params ?? {}, 'path parameters') as Record<string, string>;
        const query = parseOrThrow(row.query, parseQuery(row, req.url), 'query') as Record<string, unknown>;
        let body: unknown = undefined;
        if (row.body) body = parseOrThrow(row.body, requestBody(row, req.body), 'body');
        if (caller) limits.take(caller.userId, caller.tier, row.bucket, endpointCost(row, body));
        const handler = backend.handlers[row.id];
        if (!handler) throw new ExchangeError(501, 'not_implemented', `${row.method} ${row.path} is not implemented by this exchange`);
        const result = await handler({ row, params, query, body, caller, nowMs });
        if (row.status === 204) return reply.code(204).send();
        return reply.code(row.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result ?? {}));
      },
    });
  }
  return app;
}
