import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
import { AskSchema, LightAnswerSchema, WebAskSchema } from './light.schemas.js';
import { askOp, askWebOp } from './operations.js';

/** Light for the console: the same operations as `POST /light/ask` and `POST /light/web`. */
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
    extensions: operationField(askOp),
    args: { input: t.arg({ type: LightAskInput, required: true }) },
    resolve: async (_r, args, ctx) => askOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  lightWeb: t.field({
    type: LightAnswerRef,
    description: 'Explicit web search after a refusal, the query redacted (POST /light/web).',
    extensions: operationField(askWebOp),
    args: { input: t.arg({ type: LightWebInput, required: true }) },
    resolve: async (_r, args, ctx) => askWebOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
}));
