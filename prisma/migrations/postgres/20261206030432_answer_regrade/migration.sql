-- AlterTable
ALTER TABLE "AnswerAssignment" ADD COLUMN     "regradeRequestedAt" TIMESTAMP(3);
