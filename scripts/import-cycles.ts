// `npm run lint` fails on an import cycle in the studio or any package: a cycle means two modules
// that cannot be read, tested or changed one without the other. madge follows relative imports and
// the studio's `@/` alias (type-only imports included: they tie the modules together just the same).
import path from 'node:path';
import madge from 'madge';

const root = path.resolve(import.meta.dirname, '..');
const studio = path.join(root, 'apps/studio');
const result = await madge(['apps/studio/src', 'packages/agent/src', 'packages/db/src', 'packages/domain/src', 'packages/services/src', 'packages/transcripts/src'], {
  baseDir: root,
  fileExtensions: ['ts', 'tsx'],
  excludeRegExp: [/node_modules/, /\.d\.ts$/],
  tsConfig: { compilerOptions: { baseUrl: studio, paths: { '@/*': ['./src/*'] }, module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx' } },
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const cycles = result.circular();
if (cycles.length > 0) {
  console.error(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}:`);
  for (const cycle of cycles) console.error(`  ${cycle.join(' → ')} → ${cycle[0]}`);
  process.exit(1);
}
console.log(`no import cycle in ${Object.keys(result.obj()).length} modules`);
