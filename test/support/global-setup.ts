import type { TestProject } from 'vitest/node';
import { createTemplateDatabase } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database of this run (test/support/database.ts), or '' without one. */
    templateDatabase: string;
  }
}

/** Once per `vitest run`, before any test file: migrates the template that every test app's database copies. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createTemplateDatabase();
  project.provide('templateDatabase', template?.name ?? '');
  return async () => {
    await template?.drop();
  };
}
