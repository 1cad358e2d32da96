-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('lead', 'adjudicator', 'annotator');

-- CreateEnum
CREATE TYPE "DisagreementRule" AS ENUM ('any_difference', 'distance_two', 'relevance_threshold');

-- CreateEnum
CREATE TYPE "LabelKind" AS ENUM ('judgement', 'adjudication', 'reference_import', 'judge_import');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginThrottle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LoginThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "poolDepth" INTEGER NOT NULL DEFAULT 10,
    "annotatorsPerItem" INTEGER NOT NULL DEFAULT 2,
    "disagreementRule" "DisagreementRule" NOT NULL DEFAULT 'any_difference',
    "startToleranceSeconds" DOUBLE PRECISION NOT NULL DEFAULT 15,
    "calibrationTarget" INTEGER NOT NULL DEFAULT 150,
    "minPerGrade" INTEGER NOT NULL DEFAULT 10,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Video" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "url" TEXT,
    "path" TEXT,
    "durationSeconds" DOUBLE PRECISION,

    CONSTRAINT "Video_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Chunk" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "videoId" INTEGER NOT NULL,
    "startSeconds" DOUBLE PRECISION NOT NULL,
    "endSeconds" DOUBLE PRECISION NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "Chunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Query" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "author" TEXT,
    "referenceStartSeconds" DOUBLE PRECISION,
    "referenceVideoId" INTEGER,

    CONSTRAINT "Query_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueryTag" (
    "queryId" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "QueryTag_pkey" PRIMARY KEY ("queryId","tag")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "system" TEXT NOT NULL,
    "description" TEXT,
    "contentHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunEntry" (
    "runId" INTEGER NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "rank" INTEGER NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "RunEntry_pkey" PRIMARY KEY ("runId","queryId","chunkId")
);

-- CreateTable
CREATE TABLE "PoolItem" (
    "id" TEXT NOT NULL,
    "projectId" INTEGER NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PoolItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PoolProvenance" (
    "poolItemId" TEXT NOT NULL,
    "runId" INTEGER NOT NULL,
    "rank" INTEGER NOT NULL,

    CONSTRAINT "PoolProvenance_pkey" PRIMARY KEY ("poolItemId","runId")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" SERIAL NOT NULL,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orderKey" DOUBLE PRECISION NOT NULL,
    "calibration" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Judgement" (
    "id" SERIAL NOT NULL,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" DOUBLE PRECISION,
    "notes" TEXT NOT NULL DEFAULT '',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "timeSpentMs" INTEGER,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Judgement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Adjudication" (
    "id" SERIAL NOT NULL,
    "poolItemId" TEXT NOT NULL,
    "adjudicatorId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" DOUBLE PRECISION,
    "rationale" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Adjudication_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeLabel" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "judge" TEXT NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "rationale" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReferenceLabel" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "queryId" INTEGER NOT NULL,
    "chunkId" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReferenceLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LabelEvent" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "poolItemId" TEXT,
    "actorId" TEXT,
    "kind" "LabelKind" NOT NULL,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabelEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportRecord" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ImportRecord_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "Video" ADD CONSTRAINT "Video_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Chunk" ADD CONSTRAINT "Chunk_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Chunk" ADD CONSTRAINT "Chunk_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "Video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Query" ADD CONSTRAINT "Query_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Query" ADD CONSTRAINT "Query_referenceVideoId_fkey" FOREIGN KEY ("referenceVideoId") REFERENCES "Video"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueryTag" ADD CONSTRAINT "QueryTag_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEntry" ADD CONSTRAINT "RunEntry_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEntry" ADD CONSTRAINT "RunEntry_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEntry" ADD CONSTRAINT "RunEntry_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolItem" ADD CONSTRAINT "PoolItem_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolItem" ADD CONSTRAINT "PoolItem_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolItem" ADD CONSTRAINT "PoolItem_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolProvenance" ADD CONSTRAINT "PoolProvenance_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolProvenance" ADD CONSTRAINT "PoolProvenance_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Judgement" ADD CONSTRAINT "Judgement_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Judgement" ADD CONSTRAINT "Judgement_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Adjudication" ADD CONSTRAINT "Adjudication_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Adjudication" ADD CONSTRAINT "Adjudication_adjudicatorId_fkey" FOREIGN KEY ("adjudicatorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeLabel" ADD CONSTRAINT "JudgeLabel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeLabel" ADD CONSTRAINT "JudgeLabel_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeLabel" ADD CONSTRAINT "JudgeLabel_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferenceLabel" ADD CONSTRAINT "ReferenceLabel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferenceLabel" ADD CONSTRAINT "ReferenceLabel_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferenceLabel" ADD CONSTRAINT "ReferenceLabel_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "Chunk"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabelEvent" ADD CONSTRAINT "LabelEvent_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabelEvent" ADD CONSTRAINT "LabelEvent_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabelEvent" ADD CONSTRAINT "LabelEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRecord" ADD CONSTRAINT "ImportRecord_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
