/**
 * Folio's version, from package.json. Imported (not read from disk at run time), so the
 * bundler embeds the value and `dist/folio --version` works with no package.json beside it.
 */
import { version } from '../package.json' with { type: 'json' };

export const VERSION: string = version;
