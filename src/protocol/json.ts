/** The one test of "a JSON object" (not null, not an array) for what arrives as `unknown`: frames, hook input, files. */

/** True for a plain JSON object: an object that is neither null nor an array. */
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
