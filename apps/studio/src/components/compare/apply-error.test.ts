import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/http';
import { applyErrorMessage } from './apply-error';

describe('apply error message', () => {
  it('a running turn on the target says so and what to do', () => {
    expect(applyErrorMessage(new ApiError(409, 'turn_in_progress', 'busy'))).toBe(
      'A reply is still running on that path. Wait for it to finish, then apply again.',
    );
  });

  it('a lock on the target keeps the server message that names the preference', () => {
    const error = new ApiError(409, 'conflict', "The preference 'Cite sources' is locked on this path");
    expect(applyErrorMessage(error)).toBe("Not applied: The preference 'Cite sources' is locked on this path");
  });

  it('anything else is the safe message of any error', () => {
    expect(applyErrorMessage(new ApiError(422, 'validation_failed', 'The section is not in the source'))).toBe(
      'The section is not in the source',
    );
    expect(applyErrorMessage(new Error('boom'))).toBe('Something went wrong');
  });
});
