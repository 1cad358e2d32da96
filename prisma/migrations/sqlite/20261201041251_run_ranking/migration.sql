-- CreateTable
CREATE TABLE "RunRanking" (
    "runId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "contentHash" TEXT NOT NULL,
    "data" BLOB NOT NULL,
    CONSTRAINT "RunRanking_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
