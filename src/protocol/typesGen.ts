/**
 * Generates the TypeScript frame types of the SDK (packages/sdk/src/frames.ts) from the host's zod schemas
 * (frames.ts), so the SDK's types and the host's validation can never drift. Frames an extension sends are typed
 * as the schemas' INPUT (what the host accepts: `null` where it tolerates `null`); frames the host sends as their
 * output. `scripts/sdk.mjs` writes the file at build time and fails on drift; test/unit/sdkTypes.test.ts does too.
 */
import * as z from 'zod';
import { extFrameSchemas, hostFrameSchemas, INTERCEPTABLE_EVENTS, PANEL_KEYS, PROTOCOL_VERSION } from './frames';

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  description?: string;
};

/** PascalCase interface name of a frame: `register_tool` → `RegisterToolFromExt`. */
function frameTypeName(type: string, dir: 'Ext' | 'Host'): string {
  return type.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') + `From${dir}`;
}

function indent(s: string, by: string): string {
  return s.split('\n').join('\n' + by);
}

/** A TypeScript type expression for one JSON Schema (the subset zod 4's z.toJSONSchema produces for frames). */
function tsType(s: JsonSchema, pad: string): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map((a) => tsType(a, pad)).join(' | ');
  if (Array.isArray(s.type)) return s.type.map((t) => tsType({ ...s, type: t }, pad)).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(tsType(s.items ?? {}, pad))}[]`;
    case 'object':
      if (!s.properties) return 'Record<string, unknown>';
      return objectType(s, pad);
    case undefined:
      return 'unknown';
    default:
      throw new Error(`typesGen: unsupported JSON Schema type ${JSON.stringify(s.type)}`);
  }
}

function wrap(t: string): string {
  return /[|&\s]/.test(t) && !t.startsWith('{') ? `(${t})` : t;
}

function objectType(s: JsonSchema, pad: string): string {
  const required = new Set(s.required ?? []);
  const inner = pad + '  ';
  const fields = Object.entries(s.properties ?? {}).map(([k, v]) => {
    const doc = v.description ? `${inner}/** ${v.description} */\n` : '';
    return `${doc}${inner}${k}${required.has(k) ? '' : '?'}: ${tsType(v, inner)};`;
  });
  return `{\n${fields.join('\n')}\n${pad}}`;
}

function declare(name: string, schema: z.ZodType, io: 'input' | 'output', doc: string): string {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return `/** ${doc} */\nexport interface ${name} ${indent(objectType(json, ''), '')}\n`;
}

/** The whole generated module, deterministic (its text is compared byte for byte to detect drift). */
export function generateSdkFrameTypes(): string {
  const out: string[] = [
    '// GENERATED from src/protocol/frames.ts by src/protocol/typesGen.ts (scripts/sdk.mjs). Do not edit.',
    '// Frames an extension sends are the host schemas\' input types; frames the host sends, their output types.',
    '',
    `/** The protocol major both sides must agree on. */`,
    `export const PROTOCOL_VERSION = ${PROTOCOL_VERSION};`,
    '',
    `/** Panel key names (\`rune\` carries \`text\`). */`,
    `export type PanelKeyName = ${PANEL_KEYS.map((k) => `'${k}'`).join(' | ')};`,
    '',
    `/** Events an extension may intercept. */`,
    `export type InterceptableEvent = ${INTERCEPTABLE_EVENTS.map((k) => `'${k}'`).join(' | ')};`,
    '',
    '// ---------------------------------------------------------------- extension → host',
    '',
  ];
  const extNames: string[] = [];
  for (const [type, schema] of Object.entries(extFrameSchemas)) {
    const name = frameTypeName(type, 'Ext');
    extNames.push(name);
    out.push(declare(name, schema, 'input', `The \`${type}\` frame an extension sends.`));
  }
  out.push(`/** Every frame an extension may send. */`, `export type ExtFrame =\n  | ${extNames.join('\n  | ')};`, '');
  out.push('// ---------------------------------------------------------------- host → extension', '');
  const hostNames: string[] = [];
  for (const [type, schema] of Object.entries(hostFrameSchemas)) {
    const name = frameTypeName(type, 'Host');
    hostNames.push(name);
    out.push(declare(name, schema, 'output', `The \`${type}\` frame the host sends.`));
  }
  out.push(`/** Every frame the host may send. */`, `export type HostFrame =\n  | ${hostNames.join('\n  | ')};`, '');
  return out.join('\n');
}
