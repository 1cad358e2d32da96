-- CreateTable
CREATE TABLE "Decision" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "systems" JSONB NOT NULL,
    "measure" TEXT NOT NULL,
    "margin" REAL NOT NULL DEFAULT 0,
    "level" REAL NOT NULL DEFAULT 0.95,
    "gain" TEXT NOT NULL DEFAULT 'linear',
    "judge" TEXT,
    "population" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Decision_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DecisionBatch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "decisionId" INTEGER NOT NULL,
    "look" INTEGER NOT NULL,
    "budget" INTEGER NOT NULL,
    "tau" REAL NOT NULL,
    "seed" INTEGER NOT NULL,
    "probabilities" JSONB NOT NULL,
    "drawn" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DecisionBatch_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Decision_projectId_name_key" ON "Decision"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "DecisionBatch_decisionId_look_key" ON "DecisionBatch"("decisionId", "look");
