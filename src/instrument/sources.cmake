# Counting the timed region in place of timing it (--instrument): Callgrind's dumps, the counted
# run inside the child, and the launch of that child.
set(tare_instrument_sources
  src/instrument/callgrind_format.cpp
  src/instrument/counting.cpp
  src/instrument/judge.cpp
  src/instrument/launch.cpp
)
