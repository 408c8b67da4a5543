// Reads the official SDK's models (kalshi-typescript, generated from the real service's
// OpenAPI document) straight from their TypeScript source, so the contract test checks the
// exchange against the SDK as installed, not against a copy that could drift. Each
// `models/*.ts` holds `export interface Name { 'field'?: Type; ... }` and `export const XEnum =
// { A: 'a', ... } as const;` blocks; the reader keeps, per field, its type, whether it is
// optional (`?`) and whether it is nullable (`| null`), and per enum its values.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type TypeExpr =
  | { kind: 'string' | 'number' | 'boolean' | 'object' | 'any' }
  | { kind: 'array'; of: TypeExpr }
  | { kind: 'map'; of: TypeExpr }
  /** another model or an enum, by name */
  | { kind: 'ref'; name: string };

export interface SdkField {
  name: string;
  type: TypeExpr;
  optional: boolean;
  nullable: boolean;
}

export interface SdkModel {
  name: string;
  file: string;
  fields: SdkField[];
}

export interface SdkModels {
  models: Map<string, SdkModel>;
  enums: Map<string, string[]>;
}

const PRIMS = new Set(['string', 'number', 'boolean', 'object', 'any']);

/** One TypeScript type as the generator writes it, without a top-level `| null`. */
export function parseType(text: string): TypeExpr {
  const t = text.trim();
  if (PRIMS.has(t)) return { kind: t as 'string' };
  const arr = /^Array<(.+)>$/.exec(t);
  if (arr) return { kind: 'array', of: parseType(arr[1]!) };
  const map = /^\{\s*\[key: string\]:\s*(.+?);?\s*\}$/.exec(t);
  if (map) return { kind: 'map', of: parseType(map[1]!) };
  if (/^[A-Z][A-Za-z0-9]*$/.test(t)) return { kind: 'ref', name: t };
  throw new Error(`sdk model reader: type not understood: ${t}`);
}

/** Splits `X | null` into the type and the nullable flag (the generator puts null last). */
function splitNull(text: string): { type: string; nullable: boolean } {
  const m = /^(.*?)\s*\|\s*null$/.exec(text.trim());
  return m ? { type: m[1]!, nullable: true } : { type: text.trim(), nullable: false };
}

const FIELD_RE = /^ {4}'([A-Za-z0-9_]+)'(\?)?: (.+);$/;

/** Parses the text of one models/*.ts file into its interfaces and enums. */
export function parseModelFile(file: string, source: string, into: SdkModels): void {
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const iface = /^export interface ([A-Za-z0-9]+) \{$/.exec(lines[i]!);
    if (iface) {
      const fields: SdkField[] = [];
      for (i++; i < lines.length && lines[i] !== '}'; i++) {
        const m = FIELD_RE.exec(lines[i]!);
        if (!m) {
          if (/^\s*(\/\*\*|\*|\*\/)/.test(lines[i]!) || lines[i]!.trim() === '') continue;
          throw new Error(`sdk model reader: ${file}: line not understood: ${lines[i]}`);
        }
        const { type, nullable } = splitNull(m[3]!);
        fields.push({ name: m[1]!, type: parseType(type), optional: m[2] === '?', nullable });
      }
      into.models.set(iface[1]!, { name: iface[1]!, file, fields });
      continue;
    }
    const en = /^export const ([A-Za-z0-9]+) = \{$/.exec(lines[i]!);
    if (en) {
      const values: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('}'); i++) {
        const v = /^\s+[A-Za-z0-9_]+: '([^']*)',?$/.exec(lines[i]!);
        if (v) values.push(v[1]!);
        else if (lines[i]!.trim() !== '') throw new Error(`sdk model reader: ${file}: enum line not understood: ${lines[i]}`);
      }
      into.enums.set(en[1]!, values);
    }
  }
}

/** The directory of the installed SDK package. */
export function sdkRoot(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('kalshi-typescript/package.json'));
}

let cached: SdkModels | null = null;

/** Every model and enum of the installed SDK; every reference resolves or this throws. */
export function loadSdkModels(root = sdkRoot()): SdkModels {
  if (cached && root === sdkRoot()) return cached;
  const out: SdkModels = { models: new Map(), enums: new Map() };
  const dir = path.join(root, 'models');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && n !== 'index.ts').sort()) {
    parseModelFile(f, readFileSync(path.join(dir, f), 'utf8'), out);
  }
  const check = (t: TypeExpr, where: string): void => {
    if (t.kind === 'array' || t.kind === 'map') return check(t.of, where);
    if (t.kind === 'ref' && !out.models.has(t.name) && !out.enums.has(t.name)) throw new Error(`sdk model reader: ${where} refers to unknown ${t.name}`);
  };
  for (const m of out.models.values()) for (const f of m.fields) check(f.type, `${m.name}.${f.name}`);
  if (root === sdkRoot()) cached = out;
  return out;
}

export interface SdkOperation {
  /** the API class, e.g. MarketApi */
  api: string;
  /** the method name, e.g. getMarkets */
  name: string;
  /** the model its promise resolves to, or void / object */
  response: string;
}

/**
 * Every operation of the SDK's API classes, read from api/*.ts: the public methods of each
 * `export class XApi extends BaseAPI` and their response types from the factory's
 * `AxiosPromise<Type>` signatures.
 */
export function loadSdkOperations(root = sdkRoot()): SdkOperation[] {
  const dir = path.join(root, 'api');
  const ops: SdkOperation[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts')).sort()) {
    const src = readFileSync(path.join(dir, f), 'utf8');
    const cls = /export class ([A-Za-z]+Api) extends BaseAPI \{([\s\S]*?)\n\}/.exec(src);
    if (!cls) throw new Error(`sdk operation reader: no API class in ${f}`);
    const responses = new Map<string, string>();
    for (const m of src.matchAll(/^ {8}([a-zA-Z0-9]+)\([^\n]*\): AxiosPromise<([A-Za-z0-9]+)>/gm)) responses.set(m[1]!, m[2]!);
    for (const m of cls[2]!.matchAll(/^ {4}public ([a-zA-Z0-9]+)\(/gm)) {
      const response = responses.get(m[1]!);
      if (!response) throw new Error(`sdk operation reader: no response type for ${cls[1]}.${m[1]}`);
      ops.push({ api: cls[1]!, name: m[1]!, response });
    }
  }
  return ops;
}
