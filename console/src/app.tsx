import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Provider, useQuery } from 'urql';
import { signOut } from './auth.js';
import { createConsoleClient, createSse } from './client.js';
import { Toaster } from './components/toasts.js';
import { ErrorNote } from './components/ui.js';
import { graphql } from './graphql.js';
import { isSignedOut } from './lib/errors.js';
import { hrefOf, type Route, type Screen } from './lib/routes.js';
import { Link, navigate, useRoute } from './router.js';
import { AcceptInvitation, SignIn } from './screens/sign-in.js';
import { SseContext } from './sse.js';

/** Each screen is its own chunk: the first load carries only the shell and the sign-in form. */
const screens: Record<Screen, ComponentType<{ id?: string }>> = {
  agents: lazy(() => import('./screens/agents.js')),
  chat: lazy(() => import('./screens/chat.js')),
  debates: lazy(() => import('./screens/debates.js')),
  flows: lazy(() => import('./screens/flows.js')),
  knowledge: lazy(() => import('./screens/knowledge.js')),
  postes: lazy(() => import('./screens/postes.js')),
  webhooks: lazy(() => import('./screens/webhooks.js')),
  usage: lazy(() => import('./screens/usage.js')),
  keys: lazy(() => import('./screens/keys.js')),
  proofs: lazy(() => import('./screens/proofs.js')),
  audit: lazy(() => import('./screens/audit.js')),
  people: lazy(() => import('./screens/people.js')),
  account: lazy(() => import('./screens/account.js')),
};

/** `admin`: listed for admins only (the service refuses the others with admin_required anyway). */
const NAV: { screen: Screen; label: string; admin?: boolean }[] = [
  { screen: 'agents', label: 'Agents' },
  { screen: 'chat', label: 'Chat' },
  { screen: 'debates', label: 'Debates' },
  { screen: 'flows', label: 'Flows' },
  { screen: 'knowledge', label: 'Knowledge' },
  { screen: 'postes', label: 'Postes' },
  { screen: 'webhooks', label: 'Webhooks' },
  { screen: 'usage', label: 'Usage' },
  { screen: 'keys', label: 'API keys' },
  { screen: 'proofs', label: 'Proofs' },
  { screen: 'audit', label: 'Audit', admin: true },
  { screen: 'people', label: 'People', admin: true },
  { screen: 'account', label: 'Your account' },
];

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      userId
      person { id email name role }
      workspace { id name plan }
    }
  }
`);

export function App() {
  // A new client (and cache) per session: nothing of one person's data survives their sign-out.
  const [generation, setGeneration] = useState(0);
  const [signedOut, setSignedOut] = useState(false);
  const sse = useMemo(() => createSse(), [generation]);
  const client = useMemo(() => createConsoleClient(sse, () => setSignedOut(true)), [sse]);
  const restart = useCallback(() => {
    setSignedOut(false);
    setGeneration((g) => g + 1);
  }, []);
  return (
    <Provider value={client}>
      <SseContext.Provider value={sse}>
        <Shell key={generation} signedOut={signedOut} onSession={restart} />
        <Toaster />
      </SseContext.Provider>
    </Provider>
  );
}

function Shell({ signedOut, onSession }: { signedOut: boolean; onSession: () => void }) {
  const route = useRoute();
  const [{ data, error, fetching }] = useQuery({ query: ViewerQuery, requestPolicy: 'network-only' });
  // On a narrow screen the navigation is a row that scrolls: keep the current section in view.
  useEffect(() => {
    document.querySelector('.nav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [route, data]);
  if (route.screen === 'accept-invitation') return <AcceptInvitation onSignedIn={() => (navigate(hrefOf('agents')), onSession())} />;
  if (signedOut || (error && isSignedOut(error))) return <SignIn onSignedIn={onSession} />;
  if (!data) {
    return (
      <main className="centered" aria-busy={fetching}>
        {error ? <ErrorNote error={error} /> : <p>Loading…</p>}
      </main>
    );
  }
  const viewer = data.viewer;
  const leave = async () => {
    try {
      await signOut();
    } finally {
      onSession();
    }
  };
  return (
    <div className="layout">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">svc console</span>
        <span className="who">
          {viewer.workspace.name} · {viewer.person?.email ?? viewer.userId}
        </span>
        <button type="button" className="link-button" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Sections" className="nav">
        <ul>
          {NAV.filter((n) => !n.admin || viewer.person?.role !== 'member').map((n) => (
            <li key={n.screen}>
              <Link href={hrefOf(n.screen)} aria-current={isCurrent(route, n.screen) ? 'page' : undefined}>
                {n.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<p>Loading…</p>}>
          <ScreenOf route={route} />
        </Suspense>
      </main>
    </div>
  );
}

const isCurrent = (route: Route, screen: Screen) => route.screen === screen;

function ScreenOf({ route }: { route: Route }) {
  if (route.screen === 'not-found' || route.screen === 'accept-invitation') {
    return (
      <section>
        <h1>Page not found</h1>
        <p>
          Nothing lives at this address. Go to <Link href={hrefOf('agents')}>your agents</Link>.
        </p>
      </section>
    );
  }
  const Component = screens[route.screen];
  return <Component {...(route.id ? { id: route.id } : {})} />;
}
