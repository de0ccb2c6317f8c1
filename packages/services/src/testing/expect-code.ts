import { expect } from 'vitest';
import { AppError, type AppErrorCode } from '@trellis/domain';

/** Awaits a promise that must reject with an AppError of `code`; returns the error for further checks. */
export async function expectCode(promise: Promise<unknown>, code: AppErrorCode): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}
