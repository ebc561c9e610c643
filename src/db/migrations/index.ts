import { Migration20261122000100 } from './Migration20261122000100.js';

/** Every migration, in order. Passed as `migrationsList` so no file discovery is needed at run time. */
export const migrationsList = [{ name: 'Migration20261122000100', class: Migration20261122000100 }];
