-- CreateTable
CREATE TABLE "RunRanking" (
    "runId" INTEGER NOT NULL,
    "contentHash" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "RunRanking_pkey" PRIMARY KEY ("runId")
);

-- AddForeignKey
ALTER TABLE "RunRanking" ADD CONSTRAINT "RunRanking_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
