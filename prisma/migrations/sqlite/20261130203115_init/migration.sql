-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Project" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "poolDepth" INTEGER NOT NULL DEFAULT 10,
    "annotatorsPerItem" INTEGER NOT NULL DEFAULT 2,
    "disagreementRule" TEXT NOT NULL DEFAULT 'any_difference',
    "startToleranceSeconds" REAL NOT NULL DEFAULT 15,
    "calibrationTarget" INTEGER NOT NULL DEFAULT 150,
    "minPerGrade" INTEGER NOT NULL DEFAULT 10,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Video" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "url" TEXT,
    "path" TEXT,
    "durationSeconds" REAL,
    CONSTRAINT "Video_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Chunk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "videoId" INTEGER NOT NULL,
    "startSeconds" REAL NOT NULL,
    "endSeconds" REAL NOT NULL,
    "text" TEXT NOT NULL,
    CONSTRAINT "Chunk_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Chunk_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "Video" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Query" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "author" TEXT,
    "referenceStartSeconds" REAL,
    "referenceVideoId" INTEGER,
    CONSTRAINT "Query_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Query_referenceVideoId_fkey" FOREIGN KEY ("referenceVideoId") REFERENCES "Video" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QueryTag" (
    "queryId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,

    PRIMARY KEY ("queryId", "tag"),
    CONSTRAINT "QueryTag_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "system" TEXT NOT NULL,
    "description" TEXT,
    "contentHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunEntry" (
    "runId" INTEGER NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "rank" INTEGER NOT NULL,
    "score" REAL NOT NULL,

    PRIMARY KEY ("runId", "queryId", "chunkId"),
    CONSTRAINT "RunEntry_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunEntry_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunEntry_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PoolItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" INTEGER NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PoolItem_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PoolItem_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PoolItem_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PoolProvenance" (
    "poolItemId" TEXT NOT NULL,
    "runId" INTEGER NOT NULL,
    "rank" INTEGER NOT NULL,

    PRIMARY KEY ("poolItemId", "runId"),
    CONSTRAINT "PoolProvenance_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PoolProvenance_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orderKey" REAL NOT NULL,
    "calibration" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Assignment_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Assignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Judgement" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" REAL,
    "notes" TEXT NOT NULL DEFAULT '',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "timeSpentMs" INTEGER,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Judgement_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Judgement_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Adjudication" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "adjudicatorId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" REAL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Adjudication_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Adjudication_adjudicatorId_fkey" FOREIGN KEY ("adjudicatorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgeLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "judge" TEXT NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "rationale" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeLabel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "JudgeLabel_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "JudgeLabel_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReferenceLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" REAL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReferenceLabel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReferenceLabel_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReferenceLabel_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LabelEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "poolItemId" TEXT,
    "actorId" TEXT,
    "kind" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LabelEvent_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LabelEvent_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LabelEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ImportRecord" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ImportRecord_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Project_name_key" ON "Project"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Video_projectId_externalId_key" ON "Video"("projectId", "externalId");

-- CreateIndex
CREATE INDEX "Chunk_videoId_startSeconds_idx" ON "Chunk"("videoId", "startSeconds");

-- CreateIndex
CREATE UNIQUE INDEX "Chunk_projectId_externalId_key" ON "Chunk"("projectId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Query_projectId_externalId_key" ON "Query"("projectId", "externalId");

-- CreateIndex
CREATE INDEX "QueryTag_tag_idx" ON "QueryTag"("tag");

-- CreateIndex
CREATE UNIQUE INDEX "Run_projectId_system_key" ON "Run"("projectId", "system");

-- CreateIndex
CREATE INDEX "PoolItem_projectId_queryId_idx" ON "PoolItem"("projectId", "queryId");

-- CreateIndex
CREATE UNIQUE INDEX "PoolItem_projectId_queryId_chunkId_key" ON "PoolItem"("projectId", "queryId", "chunkId");

-- CreateIndex
CREATE INDEX "PoolProvenance_runId_idx" ON "PoolProvenance"("runId");

-- CreateIndex
CREATE INDEX "Assignment_userId_idx" ON "Assignment"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_poolItemId_userId_key" ON "Assignment"("poolItemId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Judgement_idempotencyKey_key" ON "Judgement"("idempotencyKey");

-- CreateIndex
CREATE INDEX "Judgement_userId_idx" ON "Judgement"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Judgement_poolItemId_userId_key" ON "Judgement"("poolItemId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Adjudication_poolItemId_key" ON "Adjudication"("poolItemId");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeLabel_projectId_judge_queryId_chunkId_key" ON "JudgeLabel"("projectId", "judge", "queryId", "chunkId");

-- CreateIndex
CREATE UNIQUE INDEX "ReferenceLabel_projectId_source_queryId_chunkId_key" ON "ReferenceLabel"("projectId", "source", "queryId", "chunkId");

-- CreateIndex
CREATE UNIQUE INDEX "LabelEvent_idempotencyKey_key" ON "LabelEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "LabelEvent_projectId_createdAt_idx" ON "LabelEvent"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "LabelEvent_poolItemId_idx" ON "LabelEvent"("poolItemId");

-- CreateIndex
CREATE INDEX "ImportRecord_projectId_kind_idx" ON "ImportRecord"("projectId", "kind");
