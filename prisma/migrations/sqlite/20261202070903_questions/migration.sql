-- CreateTable
CREATE TABLE "QueryPlace" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "queryId" INTEGER NOT NULL,
    "videoId" INTEGER,
    "startSeconds" REAL NOT NULL,
    "endSeconds" REAL,
    CONSTRAINT "QueryPlace_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QueryPlace_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "Video" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QueryEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "queryId" INTEGER NOT NULL,
    "actorId" TEXT,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "QueryEvent_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "QueryEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Project" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "poolDepth" INTEGER NOT NULL DEFAULT 10,
    "annotatorsPerItem" INTEGER NOT NULL DEFAULT 2,
    "disagreementRule" TEXT NOT NULL DEFAULT 'any_difference',
    "startToleranceSeconds" REAL NOT NULL DEFAULT 15,
    "calibrationTarget" INTEGER NOT NULL DEFAULT 150,
    "minPerGrade" INTEGER NOT NULL DEFAULT 10,
    "guidelines" TEXT NOT NULL DEFAULT '',
    "transcriptWhileWriting" BOOLEAN NOT NULL DEFAULT false,
    "annotatorsMayAuthor" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Project" ("annotatorsPerItem", "calibrationTarget", "createdAt", "disagreementRule", "guidelines", "id", "minPerGrade", "name", "poolDepth", "startToleranceSeconds") SELECT "annotatorsPerItem", "calibrationTarget", "createdAt", "disagreementRule", "guidelines", "id", "minPerGrade", "name", "poolDepth", "startToleranceSeconds" FROM "Project";
DROP TABLE "Project";
ALTER TABLE "new_Project" RENAME TO "Project";
CREATE UNIQUE INDEX "Project_name_key" ON "Project"("name");
CREATE TABLE "new_Query" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "author" TEXT,
    "authorId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'accepted',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Query_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Query_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Query" ("author", "externalId", "id", "projectId", "text") SELECT "author", "externalId", "id", "projectId", "text" FROM "Query";
-- Each query's reference start and video become its one answer place (issue 23)
INSERT INTO "QueryPlace" ("queryId", "videoId", "startSeconds") SELECT "id", "referenceVideoId", "referenceStartSeconds" FROM "Query" WHERE "referenceStartSeconds" IS NOT NULL ORDER BY "id";
DROP TABLE "Query";
ALTER TABLE "new_Query" RENAME TO "Query";
CREATE INDEX "Query_projectId_status_idx" ON "Query"("projectId", "status");
CREATE UNIQUE INDEX "Query_projectId_externalId_key" ON "Query"("projectId", "externalId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "QueryPlace_queryId_idx" ON "QueryPlace"("queryId");

-- CreateIndex
CREATE INDEX "QueryPlace_videoId_idx" ON "QueryPlace"("videoId");

-- CreateIndex
CREATE INDEX "QueryEvent_queryId_createdAt_idx" ON "QueryEvent"("queryId", "createdAt");
