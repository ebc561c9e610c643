import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import type { Deps } from '../src/core/deps.js';
import { errors } from '../src/errors/index.js';
import { sendError } from './errors.js';
import { pageHeaders } from './page-headers.js';

/** The console's page: the headers of every page the service serves. */
const PAGE_HEADERS = pageHeaders();

/** Where console/build.ts (Vite) writes the app. */
const CONSOLE_DIST = fileURLToPath(new URL('../console/dist/', import.meta.url));

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>svc console</title>
<p>The console is not built yet: run <code>npm run console:build</code> (<code>npm start</code> builds it when its sources change).</p></html>`;

/**
 * `/console`: the built single-page app (console/dist, built by console/build.ts). Hashed files under
 * `/console/assets/` are cached for a year (immutable: a new build has new names); every other path
 * under `/console` answers the page itself (no-cache), so the app's own routes survive a reload.
 * These are pages, not API routes: they are middleware rather than express routes, and /openapi.json
 * does not describe them.
 */
export function consoleRouter(app: Deps): Router {
  const r = Router();
  const assets = join(CONSOLE_DIST, 'assets');
  r.use('/console/assets', express.static(assets, { immutable: true, maxAge: '365d', index: false, redirect: false }));
  r.use('/console', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.originalUrl.startsWith('/console/assets/')) {
      return sendError(res, errors.notFound('route', null, `Console file not found: ${req.originalUrl.split('?')[0]}`), 'native', req.log);
    }
    const page = join(CONSOLE_DIST, 'index.html');
    if (!existsSync(page)) return void res.status(503).set(PAGE_HEADERS).send(NOT_BUILT);
    res.status(200).set(PAGE_HEADERS).send(readFileSync(page));
  });
  return r;
}
