import { describe, expect, it, vi } from 'vitest';
import { AppError, isAppError } from './app-error';

describe('isAppError', () => {
  it('recognizes an AppError thrown by another copy of the module (a separately bundled caller)', async () => {
    vi.resetModules();
    const copy = await import('./app-error');
    expect(copy.AppError).not.toBe(AppError);
    const error = new copy.AppError('unavailable', 'The studio is restarting', { details: { retry_after_seconds: 5 } });
    expect(error instanceof AppError).toBe(false);
    expect(isAppError(error)).toBe(true);
    expect(copy.isAppError(new AppError('conflict', 'no'))).toBe(true);
  });

  it('is false for other errors and for look-alikes that are not errors', () => {
    expect(isAppError(new Error('plain'))).toBe(false);
    expect(isAppError({ name: 'AppError', code: 'conflict', message: 'no' })).toBe(false);
    expect(isAppError(null)).toBe(false);
  });
});
