-- AlterTable
ALTER TABLE "JudgeLabel" ADD COLUMN "pGe1" REAL;
ALTER TABLE "JudgeLabel" ADD COLUMN "pGe2" REAL;
