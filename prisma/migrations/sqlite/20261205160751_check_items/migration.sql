-- CreateTable
CREATE TABLE "CheckJudgement" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" REAL,
    "endSeconds" REAL,
    "notes" TEXT NOT NULL DEFAULT '',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "timeSpentMs" INTEGER,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CheckJudgement_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckJudgement_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CheckEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CheckEvent_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CheckEvent_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Assignment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "orderKey" REAL NOT NULL,
    "calibration" BOOLEAN NOT NULL DEFAULT false,
    "regradeRequestedAt" DATETIME,
    "checkItem" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Assignment_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Assignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Assignment" ("calibration", "createdAt", "id", "orderKey", "poolItemId", "regradeRequestedAt", "userId") SELECT "calibration", "createdAt", "id", "orderKey", "poolItemId", "regradeRequestedAt", "userId" FROM "Assignment";
DROP TABLE "Assignment";
ALTER TABLE "new_Assignment" RENAME TO "Assignment";
CREATE INDEX "Assignment_userId_idx" ON "Assignment"("userId");
CREATE UNIQUE INDEX "Assignment_poolItemId_userId_key" ON "Assignment"("poolItemId", "userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "CheckJudgement_idempotencyKey_key" ON "CheckJudgement"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CheckJudgement_userId_idx" ON "CheckJudgement"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "CheckJudgement_poolItemId_userId_key" ON "CheckJudgement"("poolItemId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "CheckEvent_idempotencyKey_key" ON "CheckEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CheckEvent_poolItemId_idx" ON "CheckEvent"("poolItemId");
