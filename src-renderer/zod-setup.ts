// Imported first by main.tsx, before any module builds a zod schema: zod decides whether to
// compile fast paths with `new Function` when an object schema is built, and under our CSP that
// probe logs a violation. The renderer parses little (the risk limits form), so no JIT.
import { z } from 'zod';

z.config({ jitless: true });
