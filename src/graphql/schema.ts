import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { admitRootFields } from './root-fields.js';
import '../modules/workspaces/workspaces.graphql.js';
import '../modules/agents/agents.graphql.js';
import '../modules/chat/chat-turn.graphql.js';
import '../modules/chat/chat-stream.graphql.js';
import '../modules/chat/chat-sessions.graphql.js';
import '../modules/conversations/conversations.graphql.js';
import '../modules/keys/keys.graphql.js';
import '../modules/usage/usage.graphql.js';
import '../modules/webhooks/webhooks.graphql.js';
import '../modules/knowledge/knowledge.graphql.js';
import '../modules/knowledge/dossiers.graphql.js';
import '../modules/light/light.graphql.js';
import '../modules/postes/postes.graphql.js';
import '../modules/tools/tools.graphql.js';
import '../modules/people/people.graphql.js';
import '../modules/verify/verify.graphql.js';
import '../modules/registre/registre.graphql.js';
import '../modules/partner/partner.graphql.js';
import '../modules/proofs/proofs.graphql.js';
import '../modules/widgets/widgets.graphql.js';
import '../modules/flows/flows.graphql.js';
import '../modules/audit/audit.graphql.js';

let built: GraphQLSchema | undefined;

export function getSchema(): GraphQLSchema {
  built ??= admitRootFields(builder.toSchema());
  return built;
}

export const printSdl = (): string => printSchema(lexicographicSortSchema(getSchema())) + '\n';
