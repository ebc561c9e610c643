import { startTracing } from './lib/tracing-start.js';

// Tracing first (when an OTLP endpoint is configured): its instrumentations patch the modules the app
// loads after it (docs/operations.md, "Traces"). The app is imported only once it has started.
const tracing = await startTracing();
const { serve } = await import('./app/serve.js');
await serve(tracing);
