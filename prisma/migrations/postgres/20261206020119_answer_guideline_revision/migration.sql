-- AlterTable
ALTER TABLE "AnswerJudgement" ADD COLUMN     "guidelineRevision" INTEGER;

-- AlterTable
ALTER TABLE "AnswerAdjudication" ADD COLUMN     "guidelineRevision" INTEGER;
