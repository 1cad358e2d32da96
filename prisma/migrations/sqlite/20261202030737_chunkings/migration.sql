-- CreateTable
CREATE TABLE "Chunking" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "size" REAL,
    "overlap" REAL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Chunking_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Hand-edited (issue 20): every existing project gets one chunking named `default` holding all
-- its chunks and runs. Its parameters are unknown, so it counts as "imported".
INSERT INTO "Chunking" ("projectId", "name", "method", "createdAt") SELECT "id", 'default', 'imported', CURRENT_TIMESTAMP FROM "Project";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Chunk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "chunkingId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "videoId" INTEGER NOT NULL,
    "startSeconds" REAL NOT NULL,
    "endSeconds" REAL NOT NULL,
    "text" TEXT NOT NULL,
    CONSTRAINT "Chunk_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Chunk_chunkingId_fkey" FOREIGN KEY ("chunkingId") REFERENCES "Chunking" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Chunk_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "Video" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Chunk" ("endSeconds", "externalId", "id", "projectId", "chunkingId", "startSeconds", "text", "videoId") SELECT "endSeconds", "externalId", "id", "projectId", (SELECT "k"."id" FROM "Chunking" AS "k" WHERE "k"."projectId" = "Chunk"."projectId" AND "k"."name" = 'default'), "startSeconds", "text", "videoId" FROM "Chunk";
DROP TABLE "Chunk";
ALTER TABLE "new_Chunk" RENAME TO "Chunk";
CREATE INDEX "Chunk_projectId_externalId_idx" ON "Chunk"("projectId", "externalId");
CREATE INDEX "Chunk_videoId_startSeconds_idx" ON "Chunk"("videoId", "startSeconds");
CREATE UNIQUE INDEX "Chunk_chunkingId_externalId_key" ON "Chunk"("chunkingId", "externalId");
CREATE TABLE "new_Run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "chunkingId" INTEGER NOT NULL,
    "system" TEXT NOT NULL,
    "description" TEXT,
    "contentHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_chunkingId_fkey" FOREIGN KEY ("chunkingId") REFERENCES "Chunking" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("contentHash", "createdAt", "description", "id", "projectId", "chunkingId", "system") SELECT "contentHash", "createdAt", "description", "id", "projectId", (SELECT "k"."id" FROM "Chunking" AS "k" WHERE "k"."projectId" = "Run"."projectId" AND "k"."name" = 'default'), "system" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE UNIQUE INDEX "Run_projectId_system_key" ON "Run"("projectId", "system");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Chunking_projectId_name_key" ON "Chunking"("projectId", "name");
