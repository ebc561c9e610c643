export {
  checkAddress,
  checkHostName,
  validateOutboundUrl,
  OutboundUrlError,
  type AddressVerdict,
  type Deployment,
  type ResolvedAddress,
  type Resolver,
  type ValidatedUrl,
} from './address-policy.js';
export {
  safeFetch,
  OutboundRequestError,
  type OutboundRequestErrorKind,
  type SafeFetchOptions,
  type SafeFetchResponse,
} from './safe-fetch.js';
export { OutboundPools, DEFAULT_POOL_OPTIONS, type OutboundPoolsOptions } from './outbound-pools.js';
