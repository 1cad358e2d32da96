-- AlterTable
ALTER TABLE "Project" ADD COLUMN "gradingClosedAt" DATETIME;
