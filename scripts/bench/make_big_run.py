#!/usr/bin/env python3
"""Writes a deterministic benchmark collection: big.qrels (30,000 graded judgements over
500 queries) and big.run (1,000,000 lines: 500 queries x 2,000 ranked chunks, TREC run
format). Usage: python3 make_big_run.py [OUTDIR]

The collection the eval target (trec_eval 10.0's time on it) was set on, kept here as it was
given to the project (../shared/bench/make_big_run.py) so that a clone anywhere can run the
benchmarks that use it (scripts/bench/stats.ts, scripts/bench/import.ts)."""
import os
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
random.seed(7)
with open(os.path.join(out, "big.qrels"), "w") as q, open(os.path.join(out, "big.run"), "w") as r:
    for qi in range(500):
        qid = f"q{qi}"
        docs = [f"d{qi}_{j}" for j in range(2000)]
        for j in random.sample(range(2000), 60):
            q.write(f"{qid} 0 d{qi}_{j} {random.choice([0, 0, 1, 1, 2, 3])}\n")
        scores = sorted([random.random() for _ in range(2000)], reverse=True)
        for rank, (d, s) in enumerate(zip(random.sample(docs, 2000), scores), 1):
            r.write(f"{qid} Q0 {d} {rank} {s:.6f} sysA\n")
