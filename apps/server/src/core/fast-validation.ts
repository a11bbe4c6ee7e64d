import { Ajv } from 'ajv';
import { z } from 'zod';

/** A string the zod schema would change (`.trim()`) is not already in its parsed form. */
const ALREADY_TRIMMED = String.raw`^(?:\S(?:[\s\S]*\S)?)?$`;

// zod's JSON Schema names the draft it follows; validating needs nothing draft-specific.
// `unicode: false`: string lengths are `.length` (UTF-16 units), not a count of code points (ajv's
// count was 2 % of the hub's CPU at 10,000 bots); `unchangedInputSchema` keeps the answers zod's.
const ajv = new Ajv({ validateSchema: false, unicode: false });

type StringDef = { type: string; checks?: { _zod: { def: { check: string } } }[] };

/**
 * The JSON Schema of what `schema` accepts unchanged: no unknown keys (zod would strip them) and no
 * untrimmed strings (zod would trim them). Every input it accepts, zod parses to an equal value.
 */
function unchangedInputSchema(schema: z.ZodType): object {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      if (jsonSchema.type === 'object') jsonSchema.additionalProperties = false;
      const def = zodSchema._zod.def as StringDef;
      const rules: { pattern: string }[] = [];
      if (def.type === 'string' && def.checks?.some((check) => check._zod.def.check === 'overwrite'))
        rules.push({ pattern: ALREADY_TRIMMED });
      // zod counts code points, ajv here UTF-16 units (one or two per code point). A ceiling in
      // units is stricter: what it rejects goes to zod. A floor above one is checked in code points
      // by a pattern (ajv's patterns are Unicode-aware).
      if (typeof jsonSchema.minLength === 'number' && jsonSchema.minLength > 1)
        rules.push({ pattern: String.raw`^[\s\S]{${jsonSchema.minLength},}$` });
      if (rules.length > 0) jsonSchema.allOf = [...(jsonSchema.allOf ?? []), ...rules];
    },
  });
}

/**
 * zod's `safeParse` with a compiled fast path, for hot paths such as bot reports (thousands a second):
 * an input that a validator compiled once (ajv) finds valid and already in its parsed form is returned
 * as is, about ten times faster than zod's interpreted checks; any other input (invalid, or to be
 * trimmed or stripped) goes to zod, whose answer, errors and output stay the reference.
 * The only string rewrite the fast path knows is `.trim()` (the schemas' only one); a schema with
 * another `.overwrite()` must not use it (fast-validation.test.ts compares both on random inputs).
 */
export function compileSafeParse<T extends z.ZodType>(
  schema: T,
): (input: unknown) => z.ZodSafeParseResult<z.output<T>> {
  const isUnchanged = ajv.compile(unchangedInputSchema(schema));
  return (input) =>
    isUnchanged(input) ? { success: true, data: input as z.output<T> } : schema.safeParse(input);
}
