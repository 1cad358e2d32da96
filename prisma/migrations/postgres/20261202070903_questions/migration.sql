-- CreateEnum
CREATE TYPE "QuestionStatus" AS ENUM ('draft', 'accepted', 'rejected');

-- DropForeignKey
ALTER TABLE "Query" DROP CONSTRAINT "Query_referenceVideoId_fkey";

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "annotatorsMayAuthor" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "transcriptWhileWriting" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "QueryPlace" (
    "id" SERIAL NOT NULL,
    "queryId" INTEGER NOT NULL,
    "videoId" INTEGER,
    "startSeconds" DOUBLE PRECISION NOT NULL,
    "endSeconds" DOUBLE PRECISION,

    CONSTRAINT "QueryPlace_pkey" PRIMARY KEY ("id")
);

-- Each query's reference start and video become its one answer place (issue 23)
INSERT INTO "QueryPlace" ("queryId", "videoId", "startSeconds") SELECT "id", "referenceVideoId", "referenceStartSeconds" FROM "Query" WHERE "referenceStartSeconds" IS NOT NULL ORDER BY "id";

-- AlterTable
ALTER TABLE "Query" DROP COLUMN "referenceStartSeconds",
DROP COLUMN "referenceVideoId",
ADD COLUMN     "authorId" TEXT,
ADD COLUMN     "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "status" "QuestionStatus" NOT NULL DEFAULT 'accepted',
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "QueryEvent" (
    "id" SERIAL NOT NULL,
    "queryId" INTEGER NOT NULL,
    "actorId" TEXT,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QueryEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QueryPlace_queryId_idx" ON "QueryPlace"("queryId");

-- CreateIndex
CREATE INDEX "QueryPlace_videoId_idx" ON "QueryPlace"("videoId");

-- CreateIndex
CREATE INDEX "QueryEvent_queryId_createdAt_idx" ON "QueryEvent"("queryId", "createdAt");

-- CreateIndex
CREATE INDEX "Query_projectId_status_idx" ON "Query"("projectId", "status");

-- AddForeignKey
ALTER TABLE "Query" ADD CONSTRAINT "Query_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueryPlace" ADD CONSTRAINT "QueryPlace_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueryPlace" ADD CONSTRAINT "QueryPlace_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "Video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueryEvent" ADD CONSTRAINT "QueryEvent_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QueryEvent" ADD CONSTRAINT "QueryEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
