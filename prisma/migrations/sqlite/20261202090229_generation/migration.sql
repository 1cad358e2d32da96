-- AlterTable
ALTER TABLE "JudgeCache" ADD COLUMN "result" TEXT;

-- CreateTable
CREATE TABLE "Answer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" INTEGER NOT NULL,
    "system" TEXT NOT NULL,
    "queryId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "citations" TEXT,
    "contentHash" TEXT NOT NULL,
    "claimVersion" INTEGER NOT NULL DEFAULT 1,
    "disputedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Answer_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Answer_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerContext" (
    "answerId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,

    PRIMARY KEY ("answerId", "position"),
    CONSTRAINT "AnswerContext_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerContext_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerClaim" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "answerId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "startChar" INTEGER,
    "endChar" INTEGER,
    "source" TEXT NOT NULL DEFAULT 'sentence',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerClaim_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerAssignment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "answerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orderKey" REAL NOT NULL,
    "calibration" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerAssignment_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerAssignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerJudgement" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "answerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "claimVersion" INTEGER NOT NULL,
    "claimLabels" TEXT NOT NULL,
    "relevance" INTEGER NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "timeSpentMs" INTEGER,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AnswerJudgement_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerJudgement_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerAdjudication" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "answerId" TEXT NOT NULL,
    "adjudicatorId" TEXT NOT NULL,
    "claimVersion" INTEGER NOT NULL,
    "claimLabels" TEXT NOT NULL,
    "relevance" INTEGER NOT NULL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerAdjudication_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerAdjudication_adjudicatorId_fkey" FOREIGN KEY ("adjudicatorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerJudgeLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "judge" TEXT NOT NULL,
    "answerId" TEXT NOT NULL,
    "claimVersion" INTEGER NOT NULL,
    "claimLabels" TEXT,
    "relevance" INTEGER,
    "rationale" TEXT,
    "provenance" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerJudgeLabel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerJudgeLabel_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerJudgeTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "answerId" TEXT NOT NULL,
    "sample" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "raw" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "workerId" TEXT,
    "claimedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "AnswerJudgeTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerJudgeTask_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnswerEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "answerId" TEXT NOT NULL,
    "actorId" TEXT,
    "kind" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AnswerEvent_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerEvent_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AnswerEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_JudgeRun" (
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
    "target" TEXT NOT NULL DEFAULT 'chunks',
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
INSERT INTO "new_JudgeRun" ("apiKeyEnv", "baseUrl", "completionTokens", "cost", "createdAt", "finishedAt", "id", "judge", "maxCost", "model", "params", "priceIn", "priceOut", "projectId", "promptTokens", "samples", "startedAt", "status", "stopReason", "subset", "template", "templateSha256") SELECT "apiKeyEnv", "baseUrl", "completionTokens", "cost", "createdAt", "finishedAt", "id", "judge", "maxCost", "model", "params", "priceIn", "priceOut", "projectId", "promptTokens", "samples", "startedAt", "status", "stopReason", "subset", "template", "templateSha256" FROM "JudgeRun";
DROP TABLE "JudgeRun";
ALTER TABLE "new_JudgeRun" RENAME TO "JudgeRun";
CREATE UNIQUE INDEX "JudgeRun_projectId_judge_key" ON "JudgeRun"("projectId", "judge");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Answer_projectId_queryId_idx" ON "Answer"("projectId", "queryId");

-- CreateIndex
CREATE UNIQUE INDEX "Answer_projectId_system_queryId_key" ON "Answer"("projectId", "system", "queryId");

-- CreateIndex
CREATE INDEX "AnswerContext_chunkId_idx" ON "AnswerContext"("chunkId");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerClaim_answerId_version_position_key" ON "AnswerClaim"("answerId", "version", "position");

-- CreateIndex
CREATE INDEX "AnswerAssignment_userId_idx" ON "AnswerAssignment"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerAssignment_answerId_userId_key" ON "AnswerAssignment"("answerId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerJudgement_idempotencyKey_key" ON "AnswerJudgement"("idempotencyKey");

-- CreateIndex
CREATE INDEX "AnswerJudgement_userId_idx" ON "AnswerJudgement"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerJudgement_answerId_userId_key" ON "AnswerJudgement"("answerId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerAdjudication_answerId_key" ON "AnswerAdjudication"("answerId");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerJudgeLabel_projectId_judge_answerId_key" ON "AnswerJudgeLabel"("projectId", "judge", "answerId");

-- CreateIndex
CREATE INDEX "AnswerJudgeTask_runId_status_idx" ON "AnswerJudgeTask"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerJudgeTask_runId_answerId_sample_key" ON "AnswerJudgeTask"("runId", "answerId", "sample");

-- CreateIndex
CREATE UNIQUE INDEX "AnswerEvent_idempotencyKey_key" ON "AnswerEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "AnswerEvent_projectId_createdAt_idx" ON "AnswerEvent"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "AnswerEvent_answerId_idx" ON "AnswerEvent"("answerId");
