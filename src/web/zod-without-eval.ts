/**
 * zod compiles its object parsers with `new Function` unless told not to. Our Content-Security-Policy forbids eval
 * (docs/decisions/014-security-headers.md), and even zod's failed first try is a reported violation, so the web
 * app asks for the interpreter. zod reads this setting from a global (`globalThis.__zod_globalConfig`, zod/v4/core)
 * as each schema is built, so it is set here, first thing in each entry, without loading zod itself: zod is a lazy
 * chunk and the customer's page must not download it up front (docs/decisions/012). Should zod ever rename the
 * global, the browser journeys fail on the eval violation.
 */
const zodHolder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodHolder.__zod_globalConfig = { ...zodHolder.__zod_globalConfig, jitless: true };

export {};
