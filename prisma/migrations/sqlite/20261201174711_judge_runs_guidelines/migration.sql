-- CreateTable
CREATE TABLE "JudgeRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "judge" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "apiKeyEnv" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "templateSha256" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "subset" TEXT NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 1,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "stopReason" TEXT,
    "priceIn" REAL,
    "priceOut" REAL,
    "maxCost" REAL,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "cost" REAL NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "JudgeRun_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgeTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "sample" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "grade" INTEGER,
    "raw" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "workerId" TEXT,
    "claimedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "JudgeTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgeWorker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeWorker_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgeCache" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "grade" INTEGER NOT NULL,
    "raw" TEXT NOT NULL,
    "promptTokens" INTEGER NOT NULL,
    "completionTokens" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Project" ("annotatorsPerItem", "calibrationTarget", "createdAt", "disagreementRule", "id", "minPerGrade", "name", "poolDepth", "startToleranceSeconds") SELECT "annotatorsPerItem", "calibrationTarget", "createdAt", "disagreementRule", "id", "minPerGrade", "name", "poolDepth", "startToleranceSeconds" FROM "Project";
DROP TABLE "Project";
ALTER TABLE "new_Project" RENAME TO "Project";
CREATE UNIQUE INDEX "Project_name_key" ON "Project"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "JudgeRun_projectId_judge_key" ON "JudgeRun"("projectId", "judge");

-- CreateIndex
CREATE INDEX "JudgeTask_runId_status_idx" ON "JudgeTask"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeTask_runId_queryId_chunkId_sample_key" ON "JudgeTask"("runId", "queryId", "chunkId", "sample");

-- CreateIndex
CREATE INDEX "JudgeWorker_runId_idx" ON "JudgeWorker"("runId");
