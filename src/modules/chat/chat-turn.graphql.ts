import { builder } from '../../graphql/builder.js';
import { agentIdOf, ChatInput, chatNeeds, TurnResultRef } from './chat-types.graphql.js';
import { plainResult } from './chat.schemas.js';
import { runTurn } from './chat.service.js';
import { plainInput } from '../../graphql/plain-input.js';

const CHAT_ROUTE = 'graphql chat';

builder.mutationFields((t) => ({
  chat: t.field({
    type: TurnResultRef,
    description: 'One chat turn (the plain REST routes). Without agentId the planning step picks the agent.',
    extensions: chatNeeds(false),
    args: { agentId: t.arg.id({ required: false }), input: t.arg({ type: ChatInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const outcome = await runTurn(await ctx.service(), plainInput(args.input), { agentId: agentIdOf(args.agentId), route: CHAT_ROUTE });
      return plainResult(outcome.result);
    },
  }),
}));
