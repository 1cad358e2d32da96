-- AlterTable
ALTER TABLE "PoolItem" ADD COLUMN "disputedAt" DATETIME;

-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "tokens" REAL NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_User" ("active", "createdAt", "email", "id", "name", "passwordHash", "role") SELECT "active", "createdAt", "email", "id", "name", "passwordHash", "role" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
CREATE TABLE "new_JudgeLabel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "judge" TEXT NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "rationale" TEXT,
    "injection" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeLabel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "JudgeLabel_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "JudgeLabel_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_JudgeLabel" ("chunkId", "createdAt", "grade", "id", "judge", "projectId", "queryId", "rationale") SELECT "chunkId", "createdAt", "grade", "id", "judge", "projectId", "queryId", "rationale" FROM "JudgeLabel";
DROP TABLE "JudgeLabel";
ALTER TABLE "new_JudgeLabel" RENAME TO "JudgeLabel";
CREATE UNIQUE INDEX "JudgeLabel_projectId_judge_queryId_chunkId_key" ON "JudgeLabel"("projectId", "judge", "queryId", "chunkId");
CREATE TABLE "new_JudgeTask" (
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
    "injection" BOOLEAN NOT NULL DEFAULT false,
    "workerId" TEXT,
    "claimedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "JudgeTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_JudgeTask" ("attempts", "cached", "chunkId", "claimedAt", "completionTokens", "error", "finishedAt", "grade", "id", "promptTokens", "queryId", "raw", "runId", "sample", "status", "workerId") SELECT "attempts", "cached", "chunkId", "claimedAt", "completionTokens", "error", "finishedAt", "grade", "id", "promptTokens", "queryId", "raw", "runId", "sample", "status", "workerId" FROM "JudgeTask";
DROP TABLE "JudgeTask";
ALTER TABLE "new_JudgeTask" RENAME TO "JudgeTask";
CREATE INDEX "JudgeTask_runId_status_idx" ON "JudgeTask"("runId", "status");
CREATE UNIQUE INDEX "JudgeTask_runId_queryId_chunkId_sample_key" ON "JudgeTask"("runId", "queryId", "chunkId", "sample");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
