import { defineEntity, p } from '@mikro-orm/core';
import type { ClaimResult } from './engine.js';

/** One verifier report (a control). `seq` orders the list: it only grows, so pages stay stable while reports arrive. */
const VerifyReportSchema = defineEntity({
  name: 'VerifyReport',
  tableName: 'verify_report',
  properties: {
    id: p.string().primary(),
    seq: p.bigint('number'),
    workspaceId: p.string(),
    keyId: p.string(),
    userId: p.string(),
    language: p.string(),
    text: p.text(),
    /** `passages` or `collections`: what the text was checked against. */
    against: p.string(),
    collectionIds: p.json<string[]>().nullable(),
    passageCount: p.integer(),
    claims: p.json<ClaimResult[]>(),
    supported: p.integer(),
    contradicted: p.integer(),
    unverifiable: p.integer(),
    certificateId: p.string(),
    createdAt: p.datetime(),
  },
});
export class VerifyReport extends VerifyReportSchema.class {}
VerifyReportSchema.setClass(VerifyReport);
