// A strategy's code runs in QuickJS compiled to WebAssembly: its own heap and interpreter, with
// nothing of Node in it (no process, require, import, fetch, timers, files or network). It sees
// one global, `api`, whose functions main provides, and it is bounded: a memory limit on its
// heap, a stack limit, and a CPU budget per call enforced by QuickJS's interrupt handler (an
// endless loop is stopped there, not by trusting the code). A fault stops the strategy with a
// message that says which bound or which error, and in which handler.
import { newQuickJSWASMModule, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { CpuBudget } from './thread-cpu';

export interface SandboxLimits {
  /** heap limit, bytes (default 32 MiB) */
  memoryBytes: number;
  /** CPU time one event may take, ms (default 100) */
  cpuMs: number;
  /** CPU time loading may take, ms (default 2,000) */
  loadMs: number;
  /** interpreter stack, bytes (default 512 KiB) */
  stackBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, cpuMs: 100, loadMs: 2_000, stackBytes: 512 * 1024 };

/** The host functions the strategy may call: JSON in, JSON out (plain data only crosses). */
export type HostApi = Record<string, (...args: unknown[]) => unknown>;

export class StrategyFault extends Error {
  override name = 'StrategyFault';
  constructor(
    message: string,
    readonly kind: 'cpu' | 'memory' | 'error' | 'load',
  ) {
    super(message);
  }
}

export class Sandbox {
  private disposed = false;

  private constructor(
    private readonly rt: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    private readonly dispatch: QuickJSHandle,
    readonly handlers: readonly string[],
    private readonly limits: SandboxLimits,
    /** the CPU budget of the call under way (QuickJS's interrupt handler asks it) */
    private readonly budget: CpuBudget,
    /** what the strategy declares as `module.exports.params` (its parameters and their sweep grids), as plain data; null when none */
    readonly declared: unknown = null,
  ) {}

  /**
   * Loads `code` (a script that sets `module.exports` to its handlers) with `api` as its only
   * global. Throws a StrategyFault when it does not load within the bounds.
   */
  static async load(code: string, api: HostApi, limits: Partial<SandboxLimits> = {}): Promise<Sandbox> {
    const lim = { ...DEFAULT_LIMITS, ...limits };
    // a WebAssembly instance of its own: its own linear memory, dropped whole when the strategy stops
    const QuickJS = await newQuickJSWASMModule();
    const rt = QuickJS.newRuntime();
    rt.setMemoryLimit(lim.memoryBytes);
    rt.setMaxStackSize(lim.stackBytes);
    const budget = new CpuBudget();
    rt.setInterruptHandler(() => budget.spent());
    const vm = rt.newContext();
    try {
      const apiObj = vm.newObject();
      for (const [name, fn] of Object.entries(api)) {
        const h = vm.newFunction(name, (...args) => {
          const plain = args.map((a) => vm.dump(a) as unknown);
          let out: unknown;
          try {
            out = fn(...plain);
          } catch (e) {
            return { error: vm.newError((e as Error).message) };
          }
          if (out === undefined) return vm.undefined;
          const r = vm.evalCode(`(${JSON.stringify(JSON.stringify(out))})`);
          const s = vm.unwrapResult(r);
          const parsed = vm.getProp(vm.global, 'JSON');
          const parse = vm.getProp(parsed, 'parse');
          const v = vm.unwrapResult(vm.callFunction(parse, parsed, s));
          s.dispose();
          parse.dispose();
          parsed.dispose();
          return v;
        });
        vm.setProp(apiObj, name, h);
        h.dispose();
      }
      vm.setProp(vm.global, 'api', apiObj);
      apiObj.dispose();
      const prelude = `
        var module = { exports: {} }; var exports = module.exports;
        globalThis.__dispatch = function (name, json) {
          var h = module.exports[name];
          if (typeof h !== 'function') return;
          h(JSON.parse(json));
        };`;
      budget.arm(lim.loadMs);
      vm.unwrapResult(vm.evalCode(prelude, 'prelude.js')).dispose();
      const loaded = vm.evalCode(code, 'strategy.js');
      budget.disarm();
      if (loaded.error) {
        const e = describe(vm.dump(loaded.error), lim, 'loading');
        loaded.error.dispose();
        throw e;
      }
      loaded.value.dispose();
      const names = vm.unwrapResult(vm.evalCode('JSON.stringify(Object.keys(module.exports).filter(function (k) { return typeof module.exports[k] === "function"; }))'));
      const handlers = JSON.parse(vm.getString(names)) as string[];
      names.dispose();
      budget.arm(lim.loadMs);
      const decl = vm.unwrapResult(vm.evalCode('JSON.stringify(module.exports.params === undefined ? null : module.exports.params)'));
      budget.disarm();
      const declText = vm.typeof(decl) === 'string' ? vm.getString(decl) : 'null';
      decl.dispose();
      const dispatch = vm.getProp(vm.global, '__dispatch');
      const sb = new Sandbox(rt, vm, dispatch, handlers, lim, budget, declText.length <= 20_000 ? (JSON.parse(declText) as unknown) : null);
      return sb;
    } catch (e) {
      release(vm, rt);
      if (e instanceof StrategyFault) throw e;
      throw new StrategyFault(`the strategy did not load: ${(e as Error).message}`, 'load');
    }
  }

  has(handler: string): boolean {
    return this.handlers.includes(handler);
  }

  /** Calls `handler(event)` inside the sandbox within the CPU budget; a fault throws StrategyFault. */
  call(handler: string, event: unknown): void {
    if (this.disposed) throw new StrategyFault('the strategy is stopped', 'error');
    if (!this.has(handler)) return;
    const vm = this.vm;
    const name = vm.newString(handler);
    const json = vm.newString(JSON.stringify(event ?? null));
    this.budget.arm(this.limits.cpuMs);
    let r;
    try {
      r = vm.callFunction(this.dispatch, vm.undefined, name, json);
    } catch (e) {
      // the interpreter itself gave out (its native stack): this runtime is not used again
      this.disposed = true;
      throw new StrategyFault(`the strategy overflowed its stack in ${handler} and was stopped (${(e as Error).message})`, 'memory');
    } finally {
      this.budget.disarm();
      name.dispose();
      json.dispose();
    }
    if (r.error) {
      const e = describe(vm.dump(r.error), this.limits, handler);
      r.error.dispose();
      throw e;
    }
    r.value.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.dispatch.dispose();
    release(this.vm, this.rt);
  }
}

/**
 * Frees the context and runtime. After some faults (a stack overflow) QuickJS's own check that
 * every object was freed fails and aborts; the instance is then left to the garbage collector
 * whole (it is this strategy's alone).
 */
function release(vm: QuickJSContext, rt: QuickJSRuntime): void {
  try {
    vm.dispose();
    rt.dispose();
  } catch {
    // the module instance is dropped with the sandbox
  }
}

function describe(err: unknown, lim: SandboxLimits, where: string): StrategyFault {
  const e = (err ?? {}) as { name?: string; message?: string };
  const msg = String(e.message ?? err);
  if (/interrupted/i.test(msg)) return new StrategyFault(`the strategy ran past its CPU budget of ${where === 'loading' ? lim.loadMs : lim.cpuMs} ms in ${where} and was stopped`, 'cpu');
  if (/out of memory|string too long|invalid array buffer length|array too long/i.test(msg)) return new StrategyFault(`the strategy ran past its memory limit of ${Math.round(lim.memoryBytes / 1024 / 1024)} MiB in ${where} and was stopped`, 'memory');
  if (/stack overflow/i.test(msg)) return new StrategyFault(`the strategy overflowed its stack in ${where} and was stopped`, 'memory');
  return new StrategyFault(`the strategy failed in ${where}: ${e.name ? `${e.name}: ` : ''}${msg}`, where === 'loading' ? 'load' : 'error');
}
