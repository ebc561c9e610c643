import { z } from 'zod';

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2_000;
const NO_NUL = (s: string) => !s.includes('\u0000');

const requiredName = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'name is required' : 'name must be a string') })
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .refine(NO_NUL, 'name must not contain NUL characters')
  .refine((s) => s.trim().length > 0, 'name is required');

const optionalName = z
  .string({ error: 'name must be a string' })
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .refine(NO_NUL, 'name must not contain NUL characters')
  .refine((s) => s.trim().length > 0, 'name must not be empty')
  .nullish();

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max, `${field} must be at most ${max} characters`)
    .refine(NO_NUL, `${field} must not contain NUL characters`)
    .nullish();

/** `POST /v1/dossiers`. `clientName`: the client of the matter (removed from web queries, docs/light.md). */
export const CreateDossierSchema = z.object({
  name: requiredName,
  clientName: text('clientName', MAX_NAME),
  description: text('description', MAX_DESCRIPTION),
});
export type CreateDossierInput = z.input<typeof CreateDossierSchema>;

/** `PATCH /v1/dossiers/:id`: omitted or null keeps the value; `clientName: ""` clears it. */
export const UpdateDossierSchema = z.object({
  name: optionalName,
  clientName: text('clientName', MAX_NAME),
  description: text('description', MAX_DESCRIPTION),
});
export type UpdateDossierInput = z.input<typeof UpdateDossierSchema>;

export const DossierDtoSchema = z.object({
  id: z.string().describe('The dossier id: also its collectionId in knowledge items'),
  name: z.string().describe('Shown as dossierName in knowledge items'),
  clientName: z.string().nullable(),
  description: z.string(),
  userId: z.string(),
  sourceCount: z.number().int().describe('Documents uploaded into the dossier, whatever their state'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DossierDto = z.infer<typeof DossierDtoSchema>;
