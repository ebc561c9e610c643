import type { AppServices } from '../../app/services.js';
import type { Em } from '../../db/orm.js';

/**
 * `publishEvent(em, ...)` receives only the producer's EntityManager; this finds the app it belongs to
 * (its clock, its worker) through the ORM configuration that every fork of that ORM shares.
 */
const appsByOrmConfig = new WeakMap<object, AppServices>();

export function bindApp(app: AppServices): void {
  appsByOrmConfig.set(app.orm.config, app);
}

export function appOf(em: Em): AppServices | undefined {
  return appsByOrmConfig.get(em.config);
}
