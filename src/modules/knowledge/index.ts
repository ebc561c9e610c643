/** The knowledge module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ingestionBacklog } from './backlog.js';
export { createCollection, deleteCollection, getCollection, listCollections, updateCollection, withSourceCounts } from './collections.service.js';
export { CreateDossierSchema, DossierDtoSchema, UpdateDossierSchema } from './dossiers.schemas.js';
export { createDossier, deleteDossier, dossierNames, findDossier, getDossier, listDossiers, toDossierDto, toDossierDtos, unknownDossier, updateDossier } from './dossiers.service.js';
export { createEmbeddingsRuntime, type EmbeddingsRuntime, startEmbeddings } from './embeddings.runtime.js';
export { KnowledgeCollection, KnowledgeSource, uploadedName } from './knowledge.entity.js';
export { findCollection } from './knowledge.lookup.js';
export { agentScope, type SearchScope } from './knowledge.repository.js';
export { createIngestionRuntime, startKnowledge } from './knowledge.runtime.js';
export { AgentKnowledgeDtoSchema, CollectionDtoSchema, CreateCollectionSchema, KnowledgeItemSchema, KnowledgeQuerySchema, LinkKnowledgeSchema, type ListSourcesInput, ListSourcesSchema, SourceDtoSchema, UpdateCollectionSchema, UpdateSourceSchema } from './knowledge.schemas.js';
export { getAgentKnowledge, linkKnowledge, unlinkKnowledge } from './links.service.js';
export { queryKnowledge, searchItems } from './query.service.js';
export { createKnowledgeRetriever } from './retriever.js';
export { indexText, queryTerms } from './search-text.js';
export { deleteSource, getOriginalDocument, getSource, listSources, toSourceDto, updateSource, type UploadedFile, uploadSource } from './sources.service.js';
