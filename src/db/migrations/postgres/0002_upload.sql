-- Upload plugin: Strapi 5 files carry a focal point (JSON `{ "x", "y" }`, NULL until set).

ALTER TABLE files ADD COLUMN "focalPoint" TEXT COLLATE "C";
