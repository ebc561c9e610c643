/** The knowledge module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ingestionBacklog } from './backlog.js';
export { CreateDossierSchema, DossierDtoSchema, UpdateDossierSchema } from './dossiers.schemas.js';
export { dossierNames, findDossier, unknownDossier } from './dossiers.service.js';
export { createEmbeddingsRuntime, type EmbeddingsRuntime, startEmbeddings } from './embeddings.runtime.js';
export { KnowledgeCollection, KnowledgeSource, uploadedName } from './knowledge.entity.js';
export { findCollection } from './knowledge.lookup.js';
export { agentScope, type SearchScope } from './knowledge.repository.js';
export { createIngestionRuntime, startKnowledge } from './knowledge.runtime.js';
export { AgentKnowledgeDtoSchema, CollectionDtoSchema, CreateCollectionSchema, KnowledgeItemSchema, KnowledgeQuerySchema, LinkKnowledgeSchema, ListSourcesSchema, SourceDtoSchema, UpdateCollectionSchema, UpdateSourceSchema } from './knowledge.schemas.js';
export {
  createCollectionOp,
  createDossierOp,
  deleteCollectionOp,
  deleteDossierOp,
  deleteSourceOp,
  getAgentKnowledgeOp,
  getCollectionOp,
  getDossierOp,
  getOriginalOp,
  getSourceOp,
  linkKnowledgeOp,
  listCollectionsOp,
  listDossiersOp,
  listSourcesOp,
  queryKnowledgeOp,
  unlinkKnowledgeOp,
  updateCollectionOp,
  updateDossierOp,
  updateSourceOp,
  uploadSourceOp,
} from './operations.js';
export { queryKnowledge, searchItems } from './query.service.js';
export { createKnowledgeRetriever } from './retriever.js';
export { indexText, queryTerms } from './search-text.js';
export { type UploadedFile } from './sources.service.js';
