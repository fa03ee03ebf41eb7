"""Screening by priority (active learning): rank the unread candidates by a model trained on decisions so far.

One job per module: ``dataset`` (labelled records from a CSV in ASReview's shape or the study database),
``features`` (texts -> TF-IDF matrix, plain or field-aware), ``models`` (the classifiers and their names),
``ranker`` (train-and-rank with the retraining schedule shared by simulation and the interactive queue),
``simulate`` (replay a screening on labelled data), ``metrics`` (WSS, recall, records read), ``plot`` (the
recall curve), ``stopping`` (when to stop: a hypothesis test on a random sample of the unread posts),
``priority`` (the interactive priority order with background retraining).
"""
