/** The postes module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ListPosteRunsQuerySchema, PosteDtoSchema, PosteRunDtoSchema, RunPosteBodySchema } from './postes.schemas.js';
export { installPosteAsOperator } from './postes.service.js';
export { getPosteRunOp, installPosteOp, listCatalogueOp, listPosteRunsOp, listPostesOp, runPosteOp } from './operations.js';
