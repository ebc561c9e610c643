import { Agent, AgentMemory } from '../modules/agents/agent.entity.js';
import { ApiKey } from '../modules/keys/api-key.entity.js';
import { ChatSession, SessionMessage } from '../modules/chat/chat.entity.js';
import { Conversation, ConversationMessage } from '../modules/conversations/conversation.entity.js';
import { GatewaySigningKey, ProofCertificate } from '../modules/proofs/proof.entity.js';
import { KeyNotification, QuestionHold, QuestionPack, RateCounter, UsageEntry, UsageKeyMonth, UsagePackTotal, UsageWindowTotal } from '../modules/usage/usage.entity.js';
import { User, Workspace } from '../modules/workspaces/workspace.entity.js';
import { peopleEntities } from '../modules/people/people.entity.js';
import { knowledgeEntities } from '../modules/knowledge/knowledge.entity.js';
import { toolEntities } from '../modules/tools/tool.entity.js';
import { partnerEntities } from '../modules/partner/partner.entity.js';
import { VerifyReport } from '../modules/verify/verify-report.entity.js';
import { flowEntities } from '../modules/flows/flow.entity.js';
import { posteEntities } from '../modules/postes/poste.entity.js';
import { WebhookDelivery, WebhookEndpoint } from '../modules/webhooks/webhook.entity.js';
import { Widget } from '../modules/widgets/widget.entity.js';
import { AuditEntry } from '../modules/audit/audit.entity.js';

/** Every entity of the service; one line per module. */
export const entities = [Workspace, User, ApiKey, Agent, AgentMemory, ProofCertificate, GatewaySigningKey, Conversation, ConversationMessage, UsageEntry, QuestionPack, KeyNotification, QuestionHold, RateCounter, UsageWindowTotal, UsagePackTotal, UsageKeyMonth, WebhookEndpoint, WebhookDelivery, ...knowledgeEntities, ...toolEntities, ChatSession, SessionMessage, ...peopleEntities, VerifyReport, Widget, ...flowEntities, ...partnerEntities, ...posteEntities, AuditEntry];
