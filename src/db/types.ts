import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';

/** The ORM types alone, without the entity list and migrations that `orm.ts` loads (src/core imports these). */
export type Orm = MikroORM & { em: EntityManager };
export type Em = EntityManager;
