"""ppbench: reproduce performance problems (PPs) as benchmark cases, a buggy and a fixed program run against
each other in fresh processes, with JSON run records that carry the platform they ran on."""
