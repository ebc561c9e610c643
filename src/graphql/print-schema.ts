import { writeFileSync } from 'node:fs';
import { printSdl } from './schema.js';

writeFileSync(new URL('../../schema.graphql', import.meta.url), printSdl());
process.stdout.write('schema.graphql written\n');
