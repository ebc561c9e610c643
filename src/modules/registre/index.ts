/** The registre module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { openRegisterExport } from './registre.archive.js';
export { RegisterPageSchema, RegisterQuerySchema, RegisterSummarySchema } from './registre.schemas.js';
export { listRegister, registerSummary } from './registre.service.js';
