import { builder } from '../../graphql/builder.js';
import { operationField } from '../../graphql/root-fields.js';
import { agentIdOf, ChatInput, TurnResultRef } from './chat-types.graphql.js';
import { autoChatOp, chatOp } from './operations.js';
import { plainInput } from '../../graphql/plain-input.js';

const CHAT_ROUTE = 'graphql chat';

builder.mutationFields((t) => ({
  chat: t.field({
    type: TurnResultRef,
    description: 'One chat turn (the plain REST routes). Without agentId the planning step picks the agent.',
    // The twin of POST /v1/agents/:id/chat, or without an agent of POST /v1/agents/chat.
    extensions: operationField([chatOp, autoChatOp], (args) => (agentIdOf(args.agentId as string | null | undefined) === undefined ? autoChatOp : chatOp)),
    args: { agentId: t.arg.id({ required: false }), input: t.arg({ type: ChatInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const agentId = agentIdOf(args.agentId);
      const body = plainInput(args.input);
      const service = await ctx.service();
      return agentId === undefined
        ? autoChatOp.run(service, { body, route: CHAT_ROUTE })
        : chatOp.run(service, { agentId, body, route: CHAT_ROUTE });
    },
  }),
}));
