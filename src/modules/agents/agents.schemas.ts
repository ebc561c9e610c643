import { z } from 'zod';

export const PERSONA_FIELDS = ['name', 'role', 'personality', 'mission', 'decisionStyle', 'systemPrompt'] as const;
export type PersonaField = (typeof PERSONA_FIELDS)[number];

const MAX_TEXT = 20_000;

const requiredText = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`) })
    .max(MAX_TEXT, `${field} must be at most ${MAX_TEXT} characters`)
    .refine((s) => !s.includes('\u0000'), `${field} must not contain NUL characters`)
    .refine((s) => s.trim().length > 0, `${field} is required`);

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(MAX_TEXT, `${field} must be at most ${MAX_TEXT} characters`)
    .refine((s) => !s.includes('\u0000'), `${field} must not contain NUL characters`)
    .nullish();

const devilsAdvocate = z.boolean({ error: 'isDevilsAdvocate must be a boolean' });

/** `POST /v1/agents`: the six persona fields are required and non-empty. */
export const CreateAgentSchema = z.object({
  name: requiredText('name'),
  role: requiredText('role'),
  personality: requiredText('personality'),
  mission: requiredText('mission'),
  decisionStyle: requiredText('decisionStyle'),
  systemPrompt: requiredText('systemPrompt'),
  isDevilsAdvocate: devilsAdvocate.optional().default(false),
});
export type CreateAgentInput = z.input<typeof CreateAgentSchema>;

/** `PUT /v1/agents/:id`: partial; omitted or null keeps the value; empty strings are stored. */
export const UpdateAgentSchema = z.object({
  name: optionalText('name'),
  role: optionalText('role'),
  personality: optionalText('personality'),
  mission: optionalText('mission'),
  decisionStyle: optionalText('decisionStyle'),
  systemPrompt: optionalText('systemPrompt'),
  isDevilsAdvocate: devilsAdvocate.nullish(),
});
export type UpdateAgentInput = z.input<typeof UpdateAgentSchema>;

const consoleList = (field: string) =>
  z
    .array(
      z
        .string({ error: `${field} must be a list of strings` })
        .trim()
        .min(1, `${field} must not hold empty items`)
        .max(500, `each ${field} item must be at most 500 characters`)
        .refine((s) => !s.includes('\u0000'), `${field} must not contain NUL characters`),
      { error: `${field} must be a list of strings` },
    )
    .max(100, `${field} must hold at most 100 items`);

/**
 * The console-only fields people set in the console (SPEC: `expertise`, `outOfScope`, `checklist`;
 * `collectionScope` follows the agent's knowledge links). Omitted or null keeps the list; a list
 * replaces it whole.
 */
export const AgentConsoleFieldsSchema = z.object({
  expertise: consoleList('expertise').nullish(),
  outOfScope: consoleList('outOfScope').nullish(),
  checklist: consoleList('checklist').nullish(),
});
export type AgentConsoleFieldsInput = z.input<typeof AgentConsoleFieldsSchema>;

/** The Agent resource as returned by REST (and mirrored by GraphQL). */
export const AgentDtoSchema = z.object({
  id: z.string(),
  userId: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  role: z.string(),
  personality: z.string(),
  mission: z.string(),
  decisionStyle: z.string(),
  systemPrompt: z.string(),
  isDevilsAdvocate: z.boolean(),
  expertise: z.array(z.string()),
  outOfScope: z.array(z.string()),
  collectionScope: z.array(z.string()),
  checklist: z.array(z.string()),
  isShared: z.boolean(),
  createdAt: z.string(),
});
export type AgentDto = z.infer<typeof AgentDtoSchema>;
