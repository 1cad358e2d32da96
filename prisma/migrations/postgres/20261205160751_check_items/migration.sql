-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "checkItem" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "CheckJudgement" (
    "id" SERIAL NOT NULL,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" DOUBLE PRECISION,
    "endSeconds" DOUBLE PRECISION,
    "notes" TEXT NOT NULL DEFAULT '',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "timeSpentMs" INTEGER,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CheckJudgement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CheckEvent" (
    "id" SERIAL NOT NULL,
    "poolItemId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CheckEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CheckJudgement_idempotencyKey_key" ON "CheckJudgement"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CheckJudgement_userId_idx" ON "CheckJudgement"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "CheckJudgement_poolItemId_userId_key" ON "CheckJudgement"("poolItemId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "CheckEvent_idempotencyKey_key" ON "CheckEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CheckEvent_poolItemId_idx" ON "CheckEvent"("poolItemId");

-- AddForeignKey
ALTER TABLE "CheckJudgement" ADD CONSTRAINT "CheckJudgement_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckJudgement" ADD CONSTRAINT "CheckJudgement_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckEvent" ADD CONSTRAINT "CheckEvent_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckEvent" ADD CONSTRAINT "CheckEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
