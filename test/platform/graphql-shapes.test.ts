/**
 * One shape per resource (docs/architecture.md): the GraphQL inputs and outputs are derived from the
 * zod schemas. Each derived type has exactly the schema's fields, and a field is non-null exactly when
 * the schema refuses it absent (inputs) or never gives it null (outputs).
 */
import { getNamedType, GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType, isNonNullType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputFromZod } from '../../src/graphql/from-zod.js';
import { getSchema } from '../../src/graphql/schema.js';
import { AgentDtoSchema, CreateAgentSchema, UpdateAgentSchema } from '../../src/modules/agents/agents.schemas.js';
import { ChatRequestSchema, ChatTurnDoneSchema, ContextBlockSchema, ResponseFormatSchema } from '../../src/modules/chat/chat.schemas.js';
import { KeyAttributesSchema } from '../../src/modules/keys/keys.schemas.js';
import {
  AgentKnowledgeDtoSchema,
  CollectionDtoSchema,
  CreateCollectionSchema,
  KnowledgeItemSchema,
  KnowledgeQuerySchema,
  SourceDtoSchema,
  UpdateCollectionSchema,
  UpdateSourceSchema,
} from '../../src/modules/knowledge/knowledge.schemas.js';
import { CreateToolSchema, HeaderInputSchema, ToolDtoSchema, UpdateToolSchema } from '../../src/modules/tools/tools.schemas.js';
import { CreateWebhookSchema, DeliveryDtoSchema, UpdateWebhookSchema, WebhookDtoSchema } from '../../src/modules/webhooks/webhooks.schemas.js';

const schema: GraphQLSchema = getSchema();

function fieldsOf(name: string) {
  const type = schema.getType(name);
  if (!(type instanceof GraphQLInputObjectType) && !(type instanceof GraphQLObjectType)) throw new Error(`${name} is not an object or input type`);
  return type.getFields();
}

const nonNull = (name: string) =>
  Object.entries(fieldsOf(name))
    .filter(([, f]) => isNonNullType(f.type))
    .map(([key]) => key)
    .sort();

const INPUTS: [string, z.ZodObject][] = [
  ['CreateAgentInput', CreateAgentSchema],
  ['UpdateAgentInput', UpdateAgentSchema],
  ['ChatInput', ChatRequestSchema],
  ['ChatContextBlockInput', ContextBlockSchema],
  ['ChatResponseFormatInput', ResponseFormatSchema],
  ['ToolInput', CreateToolSchema],
  ['UpdateToolInput', UpdateToolSchema],
  ['ToolHeaderInput', HeaderInputSchema],
  ['CreateWebhookInput', CreateWebhookSchema],
  ['UpdateWebhookInput', UpdateWebhookSchema],
  ['ApiKeyInput', KeyAttributesSchema],
  ['KnowledgeQueryInput', KnowledgeQuerySchema],
  ['KnowledgeCollectionInput', CreateCollectionSchema],
  ['UpdateKnowledgeCollectionInput', UpdateCollectionSchema],
  ['UpdateKnowledgeSourceInput', UpdateSourceSchema],
];

/** Objects derived from a DTO schema, and the fields added by hand (resolvers, loaders). */
const OUTPUTS: [string, z.ZodObject, string[]][] = [
  ['Agent', AgentDtoSchema, ['isPoste', 'tools']],
  ['Tool', ToolDtoSchema, []],
  ['WebhookEndpoint', WebhookDtoSchema, ['deliveries']],
  ['WebhookDelivery', DeliveryDtoSchema, ['payload']],
  ['KnowledgeSource', SourceDtoSchema, ['collection']],
  ['KnowledgeCollection', CollectionDtoSchema, ['sources']],
  ['KnowledgeItem', KnowledgeItemSchema, []],
  ['AgentKnowledge', AgentKnowledgeDtoSchema, []],
];

describe('GraphQL types derived from the zod schemas', () => {
  it.each(INPUTS)('%s has the fields of its schema, non-null exactly where a field is required', (name, zod) => {
    expect(Object.keys(fieldsOf(name)).sort()).toEqual(Object.keys(zod.shape).sort());
    const required = Object.entries(zod.shape)
      .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
      .map(([key]) => key)
      .sort();
    expect(nonNull(name)).toEqual(required);
  });

  it.each(OUTPUTS)('%s has the fields of its DTO, nullable exactly where the DTO may be null', (name, zod, byHand) => {
    expect(Object.keys(fieldsOf(name)).sort()).toEqual([...Object.keys(zod.shape), ...byHand].sort());
    const never = Object.entries(zod.shape)
      .filter(([, field]) => !(field as z.ZodType).safeParse(null).success && !(field as z.ZodType).safeParse(undefined).success)
      .map(([key]) => key);
    expect(nonNull(name).filter((key) => !byHand.includes(key))).toEqual(never.sort());
  });

  it('ChatTurnResult is the done payload; what only the stream reports is nullable', () => {
    expect(Object.keys(fieldsOf('ChatTurnResult')).sort()).toEqual(Object.keys(ChatTurnDoneSchema.shape).sort());
    for (const key of ['proofId', 'consultations', 'mood', 'masked', 'contextUsed', 'thoughts', 'extracted', 'contentParsed']) {
      expect(nonNull('ChatTurnResult')).not.toContain(key);
    }
    expect(getNamedType(fieldsOf('ChatTurnResult').contextUsed!.type).name).toBe('JSON');
  });

  it('maps ints to Int, numbers to Float, enums to enums, records and unions to JSON, lists of non-null items', () => {
    const type = (owner: string, field: string) => String(fieldsOf(owner)[field]!.type);
    expect(type('ChatOptionsInput', 'maxTokens')).toBe('Int');
    expect(type('ChatOptionsInput', 'temperature')).toBe('Float');
    expect(type('ChatExtractionInput', 'categories')).toBe('[String!]!');
    expect(type('ChatContextBlockInput', 'data')).toBe('JSON!');
    expect(type('ChatResponseFormatInput', 'fields')).toBe('JSON');
    expect(type('ToolInput', 'headers')).toBe('[ToolHeaderInput!]');
    expect(type('Tool', 'method')).toBe('ToolMethod!');
    expect(type('Agent', 'id')).toBe('ID!');
    expect((schema.getType('ChatContextBlockPriority') as GraphQLEnumType).getValues().map((v) => v.name).sort()).toEqual(['high', 'low', 'medium']);
  });

  it('refuses a zod type it cannot map, and one name derived from two schemas', () => {
    expect(() => inputFromZod('WhenInput', z.object({ at: z.date() }))).toThrow(/zod type "date"/);
    expect(() => inputFromZod('CreateAgentInput', UpdateAgentSchema)).toThrow(/two different zod schemas/);
  });
});
