-- AlterTable
ALTER TABLE "AnswerAssignment" ADD COLUMN "regradeRequestedAt" DATETIME;
