/** The usage module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { controlsInsert, controlsRecorded, type PendingControl, recordControl } from './controls.js';
export { type Admission, type AdmissionCarrier, afterRequestRates, type ConsumptionWriter, type PendingConsumption, type RecordedConsumption, recordStatement, assertCanConsume, assertKeyBudget, deferRequestRates, questionsFor, settleRequestRates } from './metering.service.js';
export { calendarMonth, MONTH_FORMAT, MONTH_PATTERN, monthOf, type Period } from './periods.js';
export { addPack, setPlan } from './plans.service.js';
export { documentLimitFor, isPaidPlan, planTerms, requiredPlanFor, subscriptionState } from './plans.js';
export { enforceRequestRates, type KeyCheck, type RouteRateName, startRateCounterSweep } from './rate-limit.service.js';
export { createUsageRuntime } from './runtime.js';
export { questionsByKeyIds, usageByDay, windowTotals } from './usage.repository.js';
export { MonthSchema } from './usage.schemas.js';
export { buildUsageReport, findKeyNotifications, toNotificationDto } from './usage.service.js';
export { listKeyNotificationsOp, usageReportOp, verifyUsageOp } from './operations.js';
