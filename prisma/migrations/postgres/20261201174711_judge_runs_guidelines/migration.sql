-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "guidelines" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "JudgeRun" (
    "id" SERIAL NOT NULL,
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
    "priceIn" DOUBLE PRECISION,
    "priceOut" DOUBLE PRECISION,
    "maxCost" DOUBLE PRECISION,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "JudgeRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeTask" (
    "id" SERIAL NOT NULL,
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
    "claimedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "JudgeTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeWorker" (
    "id" TEXT NOT NULL,
    "runId" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeWorker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeCache" (
    "key" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "raw" TEXT NOT NULL,
    "promptTokens" INTEGER NOT NULL,
    "completionTokens" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeCache_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "JudgeRun_projectId_judge_key" ON "JudgeRun"("projectId", "judge");

-- CreateIndex
CREATE INDEX "JudgeTask_runId_status_idx" ON "JudgeTask"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeTask_runId_queryId_chunkId_sample_key" ON "JudgeTask"("runId", "queryId", "chunkId", "sample");

-- CreateIndex
CREATE INDEX "JudgeWorker_runId_idx" ON "JudgeWorker"("runId");

-- AddForeignKey
ALTER TABLE "JudgeRun" ADD CONSTRAINT "JudgeRun_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeTask" ADD CONSTRAINT "JudgeTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeWorker" ADD CONSTRAINT "JudgeWorker_runId_fkey" FOREIGN KEY ("runId") REFERENCES "JudgeRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
