-- AlterTable
ALTER TABLE "Judgement" ADD COLUMN "endSeconds" REAL;

-- AlterTable
ALTER TABLE "Adjudication" ADD COLUMN "endSeconds" REAL;
