/**
 * graphql-js builds input objects without a prototype, at every level; the services parse plain JSON
 * values with their zod schemas, so resolvers hand them a plain deep copy of their input.
 */
export const plainInput = (input: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(input ?? {})) as Record<string, unknown>;
