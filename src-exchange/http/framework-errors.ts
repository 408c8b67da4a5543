// Errors the HTTP layer itself raises before any route runs (a request line or headers over
// Node's limit, a path that is not valid percent-encoding, a path parameter over the router's
// length limit, a method the path does not have) leave in the protocol's error body like every
// other error: {"error": {"code", "message"}}. Fastify's own answers have another shape.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../src-shared/endpoints';
import type { AnyEndpoint } from '../../src-shared/endpoints/types';
import { ExchangeError } from '../core/errors';

/** The error code for a status the framework (not a handler) answers with. */
export function codeForStatus(status: number): string {
  switch (status) {
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 408:
      return 'request_timeout';
    case 413:
      return 'payload_too_large';
    case 414:
      return 'uri_too_long';
    case 415:
      return 'unsupported_media_type';
    case 431:
      return 'request_header_fields_too_large';
    default:
      return 'invalid_parameters';
  }
}

/**
 * Node's HTTP parser rejects a request before fastify sees it (headers or request line over
 * the limit, a malformed request, a timeout): answer on the raw socket, then close it.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'malformed HTTP request';
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'the request line and headers exceed the server limit (16 KiB)';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'the request was not received in time';
  }
  const body = JSON.stringify(new ExchangeError(status, codeForStatus(status), message).toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Fastify's router errors: a path that is not valid percent-encoding, an over-long path parameter. */
export function frameworkErrors(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(414).send(new ExchangeError(414, codeForStatus(414), 'a path parameter is longer than 100 characters').toBody());
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.code(400).send(new ExchangeError(400, 'invalid_parameters', 'the request path is not valid percent-encoding').toBody());
    return;
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  reply.code(status).send(new ExchangeError(status, status >= 500 ? 'internal_server_error' : codeForStatus(status), error.message).toBody());
}

/** The methods each path of the table answers, to tell a 405 from a 404. */
export function methodsByPath(rows: readonly AnyEndpoint[]): (path: string) => string[] {
  const routes = rows.map((r) => ({
    method: r.method,
    re: new RegExp(`^${(API_PREFIX + r.path).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`),
  }));
  return (path) => {
    const methods = new Set<string>(routes.filter((r) => r.re.test(path)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
