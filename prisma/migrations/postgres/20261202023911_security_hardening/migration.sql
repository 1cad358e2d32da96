-- AlterTable
ALTER TABLE "User" ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "PoolItem" ADD COLUMN     "disputedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "JudgeLabel" ADD COLUMN     "injection" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "JudgeTask" ADD COLUMN     "injection" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("key")
);
