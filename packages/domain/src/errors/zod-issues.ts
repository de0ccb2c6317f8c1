import type { z } from 'zod';
import { AppError, type FieldIssue } from './app-error';

/** Turns a zod failure into the 422 AppError with one issue per field. */
export function fromZodError(error: z.ZodError, message?: string): AppError {
  const issues: FieldIssue[] = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
  return AppError.validation(issues, message);
}

/** Parses `value` with `schema`, throwing the 422 AppError on failure. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, message?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, message);
  return result.data;
}
