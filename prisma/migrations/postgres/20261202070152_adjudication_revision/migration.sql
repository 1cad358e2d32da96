-- AlterTable
ALTER TABLE "Adjudication" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 1;
