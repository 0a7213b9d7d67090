import { startFolio } from 'folio-cms';
const folio = await startFolio({ contentTypes: "/work/wt-first-minutes/test/library/fixtures/content-types", binary: false });
let refused;
try { await startFolio({ contentTypes: "/work/wt-first-minutes/test/library/fixtures/content-types", binary: false, tokens: { x: 'root' } }); } catch (error) { refused = error.message; }
let missing;
try { await startFolio({ contentTypes: '/nowhere/at/all', binary: false }); } catch (error) { missing = error.message; }
console.log(JSON.stringify({ url: folio.url, refused, missing }));
process.exit(0);
