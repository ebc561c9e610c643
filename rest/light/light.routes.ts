import { Router } from 'express';
import type { Deps } from '../../src/core/deps.js';
import { AskSchema, LightAnswerSchema, WebAskSchema, askOp, askWebOp } from '../../src/modules/light/index.js';
import { mountOperation } from '../route.js';

/** Light (docs/light.md): answers only from the workspace's documents; scope `light`. */
export function lightRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'light', meters: true } as const;
  mountOperation(r, app, askOp, {
    ...base,
    summary: "Answer a question only from the workspace's documents (or one dossier's), with [n] citations; refuses, naming what was searched, when they do not cover it",
    body: AskSchema,
    responses: {
      200: { description: 'The answer, or a refusal (refused true, refusal says why and what was searched)', schema: LightAnswerSchema },
      400: { description: 'Missing question, bad history, Dossier not found, or invalid_provider' },
    },
    input: (req) => ({ body: req.body }),
    reply: (answer) => ({ status: 200, body: answer }),
  });
  mountOperation(r, app, askWebOp, {
    ...base,
    summary: 'Explicit web search after a refusal: the query is redacted (personal data, dossier and client names) before it leaves',
    body: WebAskSchema,
    responses: {
      200: { description: 'The answer from web results, with provenance.webResults and the redacted webQuery', schema: LightAnswerSchema },
      400: { description: 'Missing question, or invalid_provider' },
      501: { description: 'web_search_not_configured: the server has no SVC_WEB_SEARCH_URL' },
      502: { description: 'web_search_failed: the web search did not answer' },
    },
    input: (req) => ({ body: req.body }),
    reply: (answer) => ({ status: 200, body: answer }),
  });
  return r;
}
