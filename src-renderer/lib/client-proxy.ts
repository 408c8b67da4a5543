// The renderer's client for the contract's methods, derived the way VS Code's ProxyChannel.toService
// derives a service's client: any method name becomes a call over one channel. The renderer knows
// the names as types only (their list lives with the zod schemas, which stay out of its bundle);
// main's door refuses a name the contract does not declare.

/**
 * An object whose own members (`fixed`: `on`, `bridge`, …) are kept, and whose every other string
 * member is a function sending that method and its arguments through `call`. `then` is not a
 * method (the object is never mistaken for a promise), nor is any symbol.
 */
export function proxyClient<T extends object>(fixed: Record<string, unknown>, call: (method: string, args: unknown[]) => Promise<unknown>): T {
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(fixed, {
    get(target, prop) {
      if (typeof prop !== 'string') return undefined;
      if (Object.prototype.hasOwnProperty.call(target, prop)) return target[prop];
      if (prop === 'then' || prop === 'toJSON' || prop === 'constructor') return undefined;
      let fn = methods.get(prop);
      if (!fn) methods.set(prop, (fn = (...args: unknown[]) => call(prop, args)));
      return fn;
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  }) as T;
}
