/** The registre module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { RegisterPageSchema, RegisterQuerySchema, RegisterSummarySchema } from './registre.schemas.js';
export { exportRegisterOp, getRegisterEntryOp, listRegisterOp, registerSummaryOp } from './operations.js';
