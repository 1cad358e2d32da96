-- CreateTable
CREATE TABLE "Decision" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "systems" JSONB NOT NULL,
    "measure" TEXT NOT NULL,
    "margin" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "level" DOUBLE PRECISION NOT NULL DEFAULT 0.95,
    "gain" TEXT NOT NULL DEFAULT 'linear',
    "judge" TEXT,
    "population" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DecisionBatch" (
    "id" SERIAL NOT NULL,
    "decisionId" INTEGER NOT NULL,
    "look" INTEGER NOT NULL,
    "budget" INTEGER NOT NULL,
    "tau" DOUBLE PRECISION NOT NULL,
    "seed" INTEGER NOT NULL,
    "probabilities" JSONB NOT NULL,
    "drawn" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DecisionBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Decision_projectId_name_key" ON "Decision"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "DecisionBatch_decisionId_look_key" ON "DecisionBatch"("decisionId", "look");

-- AddForeignKey
ALTER TABLE "Decision" ADD CONSTRAINT "Decision_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DecisionBatch" ADD CONSTRAINT "DecisionBatch_decisionId_fkey" FOREIGN KEY ("decisionId") REFERENCES "Decision"("id") ON DELETE CASCADE ON UPDATE CASCADE;
