"""Where a study's batches run: local worker processes that stop when asked (:mod:`.workers`),
a Dask cluster (:mod:`.cluster`, which also chooses between the two), and the checkpoint file
that keeps each finished batch (:mod:`.checkpoint`)."""
