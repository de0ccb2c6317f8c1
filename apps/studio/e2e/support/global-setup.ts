import type { TestProject } from 'vitest/node';
import { ensureBuild } from '../../scripts/ensure-build.ts';
import { startStudioServer } from './studio-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureBuild();
  const server = await startStudioServer();
  project.provide('baseUrl', server.baseUrl);
  return async () => {
    await server.stop();
    await server.dispose();
  };
}
