-- AlterTable
ALTER TABLE "Judgement" ADD COLUMN     "endSeconds" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Adjudication" ADD COLUMN     "endSeconds" DOUBLE PRECISION;
