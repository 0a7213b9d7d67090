/** Upload plugin: Strapi 5 files carry a focal point (JSON `{ "x", "y" }`, NULL until set). */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `ALTER TABLE files ADD COLUMN "focalPoint" ${d.textType};
`;
