-- A settlement keeps the kept keys of a day a listing traversal still reads (read within the kept week).

-- CreateTable
CREATE TABLE "ListingKeyUse" (
    "userId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "seenAt" DATE NOT NULL,

    CONSTRAINT "ListingKeyUse_pkey" PRIMARY KEY ("userId","day")
);
