// How the contract declares an IPC method, once: `method(...argument schemas).returns<Result>()`
// inside its service's channel record. The schemas are zod (main's door parses every argument
// with them); the result is a type only (main is trusted). Everything else (the method names, the
// argument table, the result table, what each service implements, the clients) is derived.
import { z } from 'zod';

declare const RESULT: unique symbol;

/** One method: its arguments as a zod tuple, and its result type (carried by the type alone). */
export interface MethodSpec<A extends z.ZodType = z.ZodType, R = unknown> {
  readonly args: A;
  readonly [RESULT]?: R;
}

interface Returns<A extends z.ZodType> {
  /** the method's result type (void when it answers nothing) */
  returns<R = void>(): MethodSpec<A, R>;
}

/** A method taking these arguments, in order (`.optional()` for a trailing optional one). */
export function method(): Returns<z.ZodTuple<[], null>>;
export function method<T extends readonly [z.ZodType, ...z.ZodType[]]>(...items: T): Returns<z.ZodTuple<T, null>>;
export function method(...items: z.ZodType[]): Returns<z.ZodType> {
  const args = items.length === 0 ? z.tuple([]) : z.tuple(items as [z.ZodType, ...z.ZodType[]]);
  return { returns: () => ({ args }) };
}

/** Channels: one record of methods per main-side service. */
export type ChannelsShape = Record<string, Record<string, MethodSpec>>;

/** The result type a method was declared with. */
export type ResultOf<S> = S extends MethodSpec<z.ZodType, infer R> ? R : never;

/** Every method name of every channel. */
export type NamesOf<C extends ChannelsShape> = { [K in keyof C]: keyof C[K] & string }[keyof C];

/** The method's spec, whichever channel declares it. */
export type SpecIn<C extends ChannelsShape, M extends string> = { [K in keyof C]: M extends keyof C[K] ? C[K][M] : never }[keyof C];

/** Method names declared by more than one channel (never, when the contract is sound). */
export type DuplicateNames<C extends ChannelsShape> = {
  [K in keyof C]: keyof C[K] & { [L in Exclude<keyof C, K>]: keyof C[L] }[Exclude<keyof C, K>];
}[keyof C];

/**
 * The flat tables the door and the clients use: each method's argument schema and its channel.
 * A name declared twice is refused here (and by `DuplicateNames` at compile time).
 */
export function flatten<C extends ChannelsShape>(channels: C): { args: { [M in NamesOf<C>]: SpecIn<C, M>['args'] }; channelOf: { [M in NamesOf<C>]: keyof C & string } } {
  const args: Record<string, z.ZodType> = {};
  const channelOf: Record<string, string> = {};
  for (const [channel, methods] of Object.entries(channels)) {
    for (const [name, spec] of Object.entries(methods)) {
      if (Object.prototype.hasOwnProperty.call(args, name)) throw new Error(`IPC method ${name} is declared by both ${channelOf[name]} and ${channel}`);
      args[name] = spec.args;
      channelOf[name] = channel;
    }
  }
  return { args: Object.freeze(args), channelOf: Object.freeze(channelOf) } as never;
}
