/**
 * The test support a bench starts the app with: this checkout's, or the one `CHECKOUT` names (another worktree, for
 * A/B runs of one bench against a base: `CHECKOUT=/work/base-x npx tsx bench/chat-turn.ts`). The app, its migrations
 * and its dependencies are then that checkout's own; the bench and its load generator are this one's.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Api = typeof import('../../test/support/api.js');
type App = typeof import('../../test/support/app.js');
type Model = typeof import('../../test/support/scripted-model-server.js');

export async function checkoutSupport(): Promise<{ root: string; api: Api['api']; startTestApp: App['startTestApp']; startScriptedModelServer: Model['startScriptedModelServer'] }> {
  const root = process.env.CHECKOUT ? pathToFileURL(`${resolve(process.env.CHECKOUT)}/`) : new URL('../../', import.meta.url);
  const load = <T>(path: string) => import(new URL(path, root).href) as Promise<T>;
  const [api, app, model] = await Promise.all([
    load<Api>('test/support/api.ts'),
    load<App>('test/support/app.ts'),
    load<Model>('test/support/scripted-model-server.ts'),
  ]);
  return { root: root.pathname, api: api.api, startTestApp: app.startTestApp, startScriptedModelServer: model.startScriptedModelServer };
}
