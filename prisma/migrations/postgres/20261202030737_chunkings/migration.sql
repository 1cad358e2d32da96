-- Hand-edited (issue 20): every existing project gets one chunking named `default` holding all
-- its chunks and runs (its parameters are unknown, so it counts as "imported"). The new columns
-- are added nullable, filled, then made NOT NULL.

-- CreateTable
CREATE TABLE "Chunking" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "size" DOUBLE PRECISION,
    "overlap" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Chunking_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Chunking_projectId_name_key" ON "Chunking"("projectId", "name");

-- AddForeignKey
ALTER TABLE "Chunking" ADD CONSTRAINT "Chunking_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "Chunking" ("projectId", "name", "method") SELECT "id", 'default', 'imported' FROM "Project";

-- DropIndex
DROP INDEX "Chunk_projectId_externalId_key";

-- AlterTable
ALTER TABLE "Chunk" ADD COLUMN     "chunkingId" INTEGER;
UPDATE "Chunk" SET "chunkingId" = "k"."id" FROM "Chunking" AS "k" WHERE "k"."projectId" = "Chunk"."projectId" AND "k"."name" = 'default';
ALTER TABLE "Chunk" ALTER COLUMN "chunkingId" SET NOT NULL;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "chunkingId" INTEGER;
UPDATE "Run" SET "chunkingId" = "k"."id" FROM "Chunking" AS "k" WHERE "k"."projectId" = "Run"."projectId" AND "k"."name" = 'default';
ALTER TABLE "Run" ALTER COLUMN "chunkingId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "Chunk_projectId_externalId_idx" ON "Chunk"("projectId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Chunk_chunkingId_externalId_key" ON "Chunk"("chunkingId", "externalId");

-- AddForeignKey
ALTER TABLE "Chunk" ADD CONSTRAINT "Chunk_chunkingId_fkey" FOREIGN KEY ("chunkingId") REFERENCES "Chunking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_chunkingId_fkey" FOREIGN KEY ("chunkingId") REFERENCES "Chunking"("id") ON DELETE CASCADE ON UPDATE CASCADE;
