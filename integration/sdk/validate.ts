// Checks a JSON value against an SDK model as read by models.ts. What the SDK's TypeScript
// promises a caller is what is checked: a required field is there and not null unless the
// model allows null; an optional field is absent or of its type (never null unless nullable);
// numbers are numbers, strings strings; enum values are among the enum's. Fields the model
// does not name are allowed (the spec's own names travel beside the SDK's).
import type { SdkModels, TypeExpr } from './models';

export type MismatchKind = 'missing' | 'null' | 'type' | 'enum';

export interface Mismatch {
  /** the model and field the rule comes from, e.g. Market.status */
  model: string;
  field: string;
  kind: MismatchKind;
  /** where in the answer, e.g. markets[3].status */
  at: string;
  detail: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const s = JSON.stringify(value);
  return `${typeof value} ${s.length > 40 ? s.slice(0, 40) + '…' : s}`;
}

function typeName(t: TypeExpr): string {
  if (t.kind === 'array') return `Array<${typeName(t.of)}>`;
  if (t.kind === 'map') return `{[key]: ${typeName(t.of)}}`;
  if (t.kind === 'ref') return t.name;
  return t.kind;
}

export function validateModel(sdk: SdkModels, modelName: string, value: unknown, at = ''): Mismatch[] {
  const out: Mismatch[] = [];
  const model = sdk.models.get(modelName);
  if (!model) throw new Error(`no SDK model ${modelName}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    out.push({ model: modelName, field: '', kind: 'type', at: at || '(body)', detail: `expected ${modelName} object, got ${describe(value)}` });
    return out;
  }
  const obj = value as Record<string, unknown>;
  for (const f of model.fields) {
    const where = at ? `${at}.${f.name}` : f.name;
    const v = obj[f.name];
    if (v === undefined) {
      if (!f.optional) out.push({ model: modelName, field: f.name, kind: 'missing', at: where, detail: `required ${typeName(f.type)} is absent` });
      continue;
    }
    if (v === null) {
      if (!f.nullable) {
        out.push({
          model: modelName,
          field: f.name,
          kind: 'null',
          at: where,
          detail: f.optional ? 'optional and not nullable: leave it out instead of null' : `required ${typeName(f.type)} is null`,
        });
      }
      continue;
    }
    checkType(sdk, f.type, v, where, modelName, f.name, out);
  }
  return out;
}

function checkType(sdk: SdkModels, t: TypeExpr, v: unknown, at: string, model: string, field: string, out: Mismatch[]): void {
  const bad = (detail: string, kind: MismatchKind = 'type'): void => {
    out.push({ model, field, kind, at, detail });
  };
  switch (t.kind) {
    case 'any':
      return;
    case 'object':
      if (typeof v !== 'object' || v === null) bad(`expected object, got ${describe(v)}`);
      return;
    case 'string':
    case 'number':
    case 'boolean':
      if (typeof v !== t.kind) bad(`expected ${t.kind}, got ${describe(v)}`);
      return;
    case 'array':
      if (!Array.isArray(v)) {
        bad(`expected ${typeName(t)}, got ${describe(v)}`);
        return;
      }
      v.forEach((item, i) => {
        if (item === null) bad(`${typeName(t)} holds null at [${i}]`, 'null');
        else checkType(sdk, t.of, item, `${at}[${i}]`, model, field, out);
      });
      return;
    case 'map':
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        bad(`expected ${typeName(t)}, got ${describe(v)}`);
        return;
      }
      for (const [k, item] of Object.entries(v)) checkType(sdk, t.of, item, `${at}.${k}`, model, field, out);
      return;
    case 'ref': {
      const values = sdk.enums.get(t.name);
      if (values) {
        if (!values.includes(v as string)) bad(`${describe(v)} is not one of ${t.name} (${values.map((x) => `'${x}'`).join(', ')})`, 'enum');
        return;
      }
      out.push(...validateModel(sdk, t.name, v, at));
      return;
    }
  }
}
