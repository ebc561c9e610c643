import { defineEntity, p } from '@mikro-orm/core';
import type { PosteItem } from './postes.schemas.js';

const PosteSchema = defineEntity({
  name: 'Poste',
  tableName: 'poste',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** The catalogue key (catalogue.ts); one poste per key and workspace. */
    key: p.text(),
    /** The agent it was installed as (deleting that agent uninstalls it: foreign key cascade). */
    agentId: p.string(),
    installedBy: p.string(),
    createdAt: p.datetime(),
  },
});
/** An installed poste: a catalogue template made an agent of the workspace. */
export class Poste extends PosteSchema.class {}
PosteSchema.setClass(Poste);

export const RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const PosteRunSchema = defineEntity({
  name: 'PosteRun',
  tableName: 'poste_run',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    posteKey: p.text(),
    agentId: p.string().nullable(),
    dossierId: p.string(),
    userId: p.string(),
    status: p.string().$type<RunStatus>(),
    instructions: p.text().nullable(),
    items: p.json<PosteItem[]>(),
    proofId: p.string().nullable(),
    totalTokens: p.integer(),
    createdAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});
/** A run of a poste on a dossier, with its report. */
export class PosteRun extends PosteRunSchema.class {}
PosteRunSchema.setClass(PosteRun);

export const posteEntities = [Poste, PosteRun];
