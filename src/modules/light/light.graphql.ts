import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { AskSchema, LightAnswerSchema, WebAskSchema } from './light.schemas.js';
import { ask, askWeb } from './light.service.js';

/** Light for the console: the same service functions as `POST /light/ask` and `POST /light/web`. */
const LightAnswerRef = objectFromZod('LightAnswer', LightAnswerSchema, {
  description: "An answer from the workspace's documents (or the web), or a refusal naming what was searched.",
  names: { refusal: 'LightRefusal', citations: 'LightCitation', provenance: 'LightProvenance', usage: 'LightUsage' },
});

const LightAskInput = inputFromZod('LightAskInput', AskSchema, { names: { history: 'LightHistory' } });
const LightWebInput = inputFromZod('LightWebInput', WebAskSchema);

builder.mutationFields((t) => ({
  lightAsk: t.field({
    type: LightAnswerRef,
    description: "Answers only from the workspace's documents, or refuses (POST /light/ask).",
    extensions: operationNeeds({ scope: 'light', write: true, twin: 'POST /light/ask' }),
    args: { input: t.arg({ type: LightAskInput, required: true }) },
    resolve: async (_r, args, ctx) => ask(await ctx.service(), plainInput(args.input)),
  }),
  lightWeb: t.field({
    type: LightAnswerRef,
    description: 'Explicit web search after a refusal, the query redacted (POST /light/web).',
    extensions: operationNeeds({ scope: 'light', write: true, twin: 'POST /light/web' }),
    args: { input: t.arg({ type: LightWebInput, required: true }) },
    resolve: async (_r, args, ctx) => askWeb(await ctx.service(), plainInput(args.input)),
  }),
}));
