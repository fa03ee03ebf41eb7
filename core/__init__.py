"""The shared core that mining, labeling, checker and ppbench build on: configuration, the database and its
schema, errors, sites, text handling, progress and the CLIs' shared options. It imports none of them."""
