/** The light module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { citedRefs, declined, groundedMessages } from './grounded.js';
export { createLightRuntime } from './light.runtime.js';
export { AskSchema, CitationSchema, LightAnswerSchema, WebAskSchema } from './light.schemas.js';
export { ask, askWeb, toCitation } from './light.service.js';
export { askOp, askWebOp } from './operations.js';
