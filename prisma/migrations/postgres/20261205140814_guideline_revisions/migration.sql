-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "regradeRequestedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Judgement" ADD COLUMN     "guidelineRevision" INTEGER;

-- AlterTable
ALTER TABLE "Adjudication" ADD COLUMN     "guidelineRevision" INTEGER;

-- CreateTable
CREATE TABLE "GuidelineRevision" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "authorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GuidelineRevision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GuidelineRevision_projectId_revision_key" ON "GuidelineRevision"("projectId", "revision");

-- AddForeignKey
ALTER TABLE "GuidelineRevision" ADD CONSTRAINT "GuidelineRevision_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GuidelineRevision" ADD CONSTRAINT "GuidelineRevision_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A project's guidelines as they stand become its revision 1 (no author: written by this
-- migration), and a project that has none written starts at revision 0 (nothing saved). Grades and
-- decisions made before revisions were recorded were made under that text or an earlier one: so
-- they are counted as revision 1 (0 without guidelines): a later save makes them "older".
INSERT INTO "GuidelineRevision" ("projectId", "revision", "text", "authorId", "createdAt")
SELECT "id", 1, "guidelines", NULL, CURRENT_TIMESTAMP FROM "Project" WHERE "guidelines" <> '';

UPDATE "Judgement" SET "guidelineRevision" = CASE WHEN EXISTS (
  SELECT 1 FROM "PoolItem" p JOIN "GuidelineRevision" g ON g."projectId" = p."projectId"
  WHERE p."id" = "Judgement"."poolItemId") THEN 1 ELSE 0 END;

UPDATE "Adjudication" SET "guidelineRevision" = CASE WHEN EXISTS (
  SELECT 1 FROM "PoolItem" p JOIN "GuidelineRevision" g ON g."projectId" = p."projectId"
  WHERE p."id" = "Adjudication"."poolItemId") THEN 1 ELSE 0 END;
