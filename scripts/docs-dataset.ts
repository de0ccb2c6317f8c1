// `npm run docs:dataset`: writes docs/dataset.md from the dataset's one declaration (domain).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { datasetMarkdown } from '@trellis/domain';

writeFileSync(path.resolve(import.meta.dirname, '../docs/dataset.md'), datasetMarkdown());
