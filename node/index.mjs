// folio-cms under Node, as an ES module: the CommonJS entry (index.cjs) re-exported.
import entry from './index.cjs';

export const startFolio = entry.startFolio;
