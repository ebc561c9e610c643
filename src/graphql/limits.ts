/**
 * Document limits (docs/operations.md, "Limits on GraphQL"): tokens bound the parser (10k nested
 * braces are refused before they can overflow the stack), then aliases, depth, directives and cost.
 * Introspection is exempt from depth and cost, so GraphiQL keeps working.
 */
export const GRAPHQL_LIMITS = { tokens: 2000, aliases: 50, depth: 10, directives: 20, cost: 5000 } as const;
