import { trellisVitestConfig } from '../../vitest.shared.ts';

export default trellisVitestConfig(import.meta.dirname);
