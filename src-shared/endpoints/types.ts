// The shape of one row of the endpoint table. The REST client's typed methods, the embedded
// exchange's routes and validation, and the coverage test are all derived from these rows.
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Bucket = 'read' | 'write';
export type RendererAccess = 'read' | 'write' | 'exposure';
/** How an array query parameter travels: `?a=x&a=y` (repeat) or `?a=x,y` (comma). */
export type ArrayStyle = 'repeat' | 'comma';

export interface PageSpec {
  /** key of the array in the response (after the response schema normalised it) */
  items: string;
  /** which query key sizes a page: `limit` (most), `page_size` (structured targets), none (FCM fills) */
  sizeParam: 'limit' | 'page_size' | null;
}

export interface EndpointDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType | null = z.ZodType | null,
  R extends z.ZodType = z.ZodType,
> {
  /** camelCase operation name, also the client's method name */
  id: string;
  method: HttpMethod;
  /** exactly as in docs/spec/endpoints.txt, without the /trade-api/v2 prefix */
  path: string;
  auth: 'public' | 'signed';
  bucket: Bucket;
  /**
   * Who may call this row through TerminalApi's `request` passthrough (the renderer is untrusted):
   * 'read' a read the UI needs; 'write' a write that cannot create or enlarge exposure;
   * 'exposure' a write that can, sent only after main's risk gate has passed it. Absent: never
   * through the passthrough (API keys go through the vault's own methods, which keep the private
   * key in main; cancels and decreases through the typed order methods).
   */
  renderer?: RendererAccess;
  /** batch endpoints cost per item: tokens = perItemCost x body[itemsField].length */
  batch?: { itemsField: string; perItemCost: number };
  /** path parameters, by the names in `path` */
  params: P;
  /** query parameters as typed values (numbers, booleans, arrays); see `arrays` for list encoding */
  query: Q;
  arrays?: Record<string, ArrayStyle>;
  /** request body, or null when the operation takes none */
  body: B;
  /**
   * The request must carry a JSON body (Content-Type: application/json, `{}` when there is
   * nothing to say); without one it is a 400. Other rows whose body schema allows no body take
   * a request without one, whatever its content type (the SDK posts some with an empty
   * form-encoded body).
   */
  jsonBodyRequired?: true;
  /** the response as the client accepts it (spec form and SDK form), normalised to the spec's names */
  response: R;
  /** the success status the exchange answers with */
  status: 200 | 201 | 204;
  /** cursor-paginated list: how to walk it */
  page?: PageSpec;
  deprecated?: boolean;
  /** 401/403 unless the caller is an FCM member */
  fcmOnly?: boolean;
  summary: string;
}

export type AnyEndpoint = EndpointDef<z.ZodType, z.ZodType, z.ZodType | null, z.ZodType>;

/** Keeps the literal types of a row (for the typed client) while checking its shape. */
export function endpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | null, R extends z.ZodType>(
  def: EndpointDef<P, Q, B, R>,
): EndpointDef<P, Q, B, R> {
  return def;
}

export type ParamsIn<E> = E extends EndpointDef<infer P, z.ZodType, z.ZodType | null, z.ZodType> ? z.input<P> : never;
export type QueryIn<E> = E extends EndpointDef<z.ZodType, infer Q, z.ZodType | null, z.ZodType> ? z.input<Q> : never;
export type BodyIn<E> = E extends EndpointDef<z.ZodType, z.ZodType, infer B, z.ZodType> ? (B extends z.ZodType ? z.input<B> : never) : never;
export type ResponseOut<E> = E extends EndpointDef<z.ZodType, z.ZodType, z.ZodType | null, infer R> ? z.output<R> : never;
/** What the exchange sends (the wire form before the client's normalisation). */
export type ResponseWire<E> = E extends EndpointDef<z.ZodType, z.ZodType, z.ZodType | null, infer R> ? z.input<R> : never;

export type EmptyObject = Record<never, never>;
/** One part of a call's arguments: required when its schema has a required key, absent when the row has none. */
type Part<K extends string, T> = unknown extends T
  ? { [P in K]?: unknown }
  : [T] extends [never]
    ? { [P in K]?: undefined }
    : EmptyObject extends T
      ? { [P in K]?: T }
      : { [P in K]: T };
/** The arguments of a call to a row (main's client and the renderer's `rest` both take this shape). */
export type RowArgs<E> = Part<'params', ParamsIn<E>> & Part<'query', QueryIn<E>> & Part<'body', BodyIn<E>>;
