/** The postes module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ListPosteRunsQuerySchema, PosteDtoSchema, PosteRunDtoSchema, RunPosteBodySchema } from './postes.schemas.js';
export { executeRun, getPosteRun, installPosteAsOperator, listPosteRuns, listPostes, prepareRun, runPoste } from './postes.service.js';
