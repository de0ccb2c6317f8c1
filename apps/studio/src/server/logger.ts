import pino from 'pino';
import { redactSecrets } from '@trellis/domain';
import { env } from './env';

const e = env();
/** The model's key, never written to a log (nor anything key-shaped: `sk-…`, `Bearer …`). */
const secrets = [e.LLM_API_KEY, e.ANTHROPIC_API_KEY].filter((s): s is string => s !== undefined && s !== '');

export const logger = pino({
  level: e.LOG_LEVEL,
  base: { app: 'trellis-studio' },
  // Every line passes through here once it is serialized; a log line is rare next to a turn's tokens.
  hooks: {
    streamWrite: (line) => redactSecrets(line, secrets),
  },
});
