-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "gradingClosedAt" TIMESTAMP(3);
