import { Migration20261122000100 } from './Migration20261122000100.js';
import { Migration20261122000200 } from './Migration20261122000200.js';
import { Migration20261122000300 } from './Migration20261122000300.js';
import { Migration20261122000400 } from './Migration20261122000400.js';
import { Migration20261122000500 } from './Migration20261122000500.js';
import { Migration20261122000510 } from './Migration20261122000510.js';
import { Migration20261122000600 } from './Migration20261122000600.js';
import { Migration20261122000700 } from './Migration20261122000700.js';
import { Migration20261123000100 } from './Migration20261123000100.js';
import { Migration20261123000300 } from './Migration20261123000300.js';
import { Migration20261123100000 } from './Migration20261123100000.js';
import { Migration20261123110000 } from './Migration20261123110000.js';
import { Migration20261123120000 } from './Migration20261123120000.js';
import { Migration20261123120100 } from './Migration20261123120100.js';
import { Migration20261123120200 } from './Migration20261123120200.js';
import { Migration20261123120300 } from './Migration20261123120300.js';
import { Migration20261123130000 } from './Migration20261123130000.js';
import { Migration20261123140000 } from './Migration20261123140000.js';
import { Migration20261123165000 } from './Migration20261123165000.js';
import { Migration20261123150000 } from './Migration20261123150000.js';
import { Migration20261123185000 } from './Migration20261123185000.js';
import { Migration20261123170000 } from './Migration20261123170000.js';

/** Every migration, in order. Passed as `migrationsList` so no file discovery is needed at run time. */
export const migrationsList = [
  { name: 'Migration20261122000100', class: Migration20261122000100 },
  { name: 'Migration20261122000200', class: Migration20261122000200 },
  { name: 'Migration20261122000300', class: Migration20261122000300 },
  { name: 'Migration20261122000400', class: Migration20261122000400 },
  { name: 'Migration20261122000500', class: Migration20261122000500 },
  { name: 'Migration20261122000510', class: Migration20261122000510 },
  { name: 'Migration20261122000600', class: Migration20261122000600 },
  { name: 'Migration20261122000700', class: Migration20261122000700 },
  { name: 'Migration20261123000100', class: Migration20261123000100 },
  { name: 'Migration20261123000300', class: Migration20261123000300 },
  { name: 'Migration20261123100000', class: Migration20261123100000 },
  { name: 'Migration20261123110000', class: Migration20261123110000 },
  { name: 'Migration20261123120000', class: Migration20261123120000 },
  { name: 'Migration20261123120100', class: Migration20261123120100 },
  { name: 'Migration20261123120200', class: Migration20261123120200 },
  { name: 'Migration20261123120300', class: Migration20261123120300 },
  { name: 'Migration20261123130000', class: Migration20261123130000 },
  { name: 'Migration20261123140000', class: Migration20261123140000 },
  { name: 'Migration20261123165000', class: Migration20261123165000 },
  { name: 'Migration20261123150000', class: Migration20261123150000 },
  { name: 'Migration20261123185000', class: Migration20261123185000 },
  { name: 'Migration20261123170000', class: Migration20261123170000 },
];
