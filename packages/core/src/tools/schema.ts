import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { ErrorInfo } from '../errors.js';

/** A JSON Schema document, as tool lists carry it. */
export type JsonSchema = Record<string, unknown>;

/** One problem with a tool's arguments: where, and what. */
export interface ArgumentIssue {
  path: string;
  message: string;
}

/**
 * The JSON Schema of a validator's input (or output), when it can say (zod 4 and other validators that
 * implement Standard JSON Schema), without the `$schema` key that some tool lists refuse.
 */
export function jsonSchemaOf(
  schema: StandardSchemaV1,
  direction: 'input' | 'output' = 'input',
): JsonSchema | undefined {
  const props: Partial<StandardJSONSchemaV1.Props> = schema['~standard'];
  const converter = props.jsonSchema;
  if (!converter) return undefined;
  const { $schema: _dialect, ...rest } = converter[direction]({ target: 'draft-07' });
  return rest;
}

/** Validates `value`; gives the parsed output or the issues, each with its path. */
export function validate(
  schema: StandardSchemaV1,
  value: unknown,
): StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>> {
  return schema['~standard'].validate(value);
}

/** The `args-invalid` ErrorInfo for a tool's argument issues. */
export function argsInvalid(toolName: string, issues: readonly StandardSchemaV1.Issue[]): ErrorInfo {
  const listed: ArgumentIssue[] = issues.map((issue) => ({ path: issuePath(issue), message: issue.message }));
  const summary = listed
    .slice(0, 5)
    .map((issue) => `${issue.path || '(arguments)'}: ${issue.message}`)
    .join('; ');
  const more = listed.length > 5 ? ` (+${listed.length - 5} more)` : '';
  return {
    kind: 'args-invalid',
    message: `Invalid arguments for "${toolName}": ${summary}${more}. Fix them to match the tool's input schema.`,
    retryable: false,
    details: { issues: listed },
  };
}

function issuePath(issue: StandardSchemaV1.Issue): string {
  let path = '';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' ? segment.key : segment;
    path += typeof key === 'number' ? `[${key}]` : path ? `.${String(key)}` : String(key);
  }
  return path;
}
