-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Adjudication" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "poolItemId" TEXT NOT NULL,
    "adjudicatorId" TEXT NOT NULL,
    "grade" INTEGER NOT NULL,
    "startSeconds" REAL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Adjudication_poolItemId_fkey" FOREIGN KEY ("poolItemId") REFERENCES "PoolItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Adjudication_adjudicatorId_fkey" FOREIGN KEY ("adjudicatorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Adjudication" ("adjudicatorId", "createdAt", "grade", "id", "poolItemId", "rationale", "startSeconds") SELECT "adjudicatorId", "createdAt", "grade", "id", "poolItemId", "rationale", "startSeconds" FROM "Adjudication";
DROP TABLE "Adjudication";
ALTER TABLE "new_Adjudication" RENAME TO "Adjudication";
CREATE UNIQUE INDEX "Adjudication_poolItemId_key" ON "Adjudication"("poolItemId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
