# Counting the timed region in place of timing it (--instrument): Callgrind's dumps and call
# graphs, the counted run inside the child, the launch of that child, and the region's profile.
set(tare_instrument_sources
  src/instrument/callgrind_format.cpp
  src/instrument/callgrind_graph.cpp
  src/instrument/counted_run.cpp
  src/instrument/counting_probe.cpp
  src/instrument/judge.cpp
  src/instrument/launch.cpp
  src/instrument/profile.cpp
)
